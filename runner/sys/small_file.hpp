// Reading a small file that a stranger controls (a bot's manifest): only a regular file, never
// followed through a link, never waited on (a FIFO would block for ever), and never more than a
// limit (a link to /dev/zero would grow the runner without end).
#pragma once

#include <cstddef>
#include <filesystem>
#include <stdexcept>
#include <string>

namespace gol::runner {

// Why a small file could not be read, in words that follow its name: "is a FIFO, not a
// regular file", "is over 65536 bytes", "is over 256 MiB", "cannot be read: Permission denied".
class SmallFileError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// The whole of `path`, at most `max_bytes`. Throws SmallFileError.
std::string read_small_file(const std::filesystem::path& path, std::size_t max_bytes);

}  // namespace gol::runner
