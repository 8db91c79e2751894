// Memory file systems with a size and an inode limit the kernel keeps: their mount options, and
// a folder of the host with one mounted on it, for a build that the runner fills before it runs
// and reads after it ends.
#pragma once

#include "runner/sys/process.hpp"
#include "runner/sys/temp_dir.hpp"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace gol::runner {

// tmpfs's options for `bytes` and `files` (inodes: every file, folder and link counts), its top
// mode 0700 and owned by `who` when given.
std::string tmpfs_options(std::uint64_t bytes, std::uint64_t files, const std::optional<Identity>& who);

// A new folder in `parent`, `who`'s. When the runner is root, a tmpfs of `bytes` and `files` is
// mounted on it (nosuid, nodev) in the runner's own mount namespace, so that the runner can copy
// into it and out of it, and unmounted when it goes: whatever is written there takes memory,
// charged to the writer's control group, and never the host's disk. Otherwise a plain folder.
class BoundedFolder {
public:
    BoundedFolder(const std::string& prefix, const std::filesystem::path& parent, std::uint64_t bytes,
                  std::uint64_t files, const std::optional<Identity>& who);
    BoundedFolder(BoundedFolder&& other) noexcept;
    BoundedFolder& operator=(BoundedFolder&&) = delete;
    ~BoundedFolder();

    const std::filesystem::path& path() const { return dir_.path(); }
    // Whether the tmpfs is there (the runner is root).
    bool bounded() const { return mounted_; }

private:
    TempDir dir_;
    bool mounted_ = false;
};

// Unmounts every mount at or below `dir`, deepest first: the bounded folders a killed runner
// left in its work area, before the area is removed.
void unmount_below(const std::filesystem::path& dir);

}  // namespace gol::runner
