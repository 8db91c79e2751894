// Where a test puts trees of thousands of folders: a memory file system where the host has one
// (/dev/shm), since removing them from a disk mounted with `discard` takes a second per thousand.
#pragma once

#include <sys/stat.h>

#include <filesystem>

namespace gol::runner::testing {

// /dev/shm when it is a folder, else `otherwise` (empty: the temporary directory).
inline std::filesystem::path memory_folder(const std::filesystem::path& otherwise = {}) {
    struct stat st {};
    return ::stat("/dev/shm", &st) == 0 && S_ISDIR(st.st_mode) ? std::filesystem::path("/dev/shm") : otherwise;
}

}  // namespace gol::runner::testing
