#include "runner/sys/small_file.hpp"

#include "runner/sys/unique_fd.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace gol::runner {

namespace {

// What a file that is not a regular one is, for the message.
const char* kind_of(mode_t mode) {
    if (S_ISDIR(mode)) return "a folder";
    if (S_ISFIFO(mode)) return "a FIFO";
    if (S_ISSOCK(mode)) return "a socket";
    if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
    return "not a plain file";
}

}  // namespace

std::string read_small_file(const std::filesystem::path& path, std::size_t max_bytes) {
    // O_NONBLOCK: opening a FIFO returns at once instead of waiting for a writer.
    UniqueFd fd(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY));
    if (!fd) {
        if (errno == ELOOP) throw SmallFileError("is a symbolic link, not a regular file");
        throw SmallFileError(std::string("cannot be read: ") + std::strerror(errno));
    }
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0) throw SmallFileError(std::string("cannot be read: ") + std::strerror(errno));
    if (!S_ISREG(st.st_mode)) throw SmallFileError(std::string("is ") + kind_of(st.st_mode) + ", not a regular file");
    // A limit of whole MiB said in them (a store's index: 256 MiB, not 268435456 bytes).
    constexpr std::size_t kMiB = std::size_t{1} << 20;
    const std::string limit = max_bytes >= kMiB && max_bytes % kMiB == 0 ? std::to_string(max_bytes / kMiB) + " MiB"
                                                                          : std::to_string(max_bytes) + " bytes";
    const auto too_big = [&] { return SmallFileError("is over " + limit); };
    if (static_cast<std::uint64_t>(st.st_size) > max_bytes) throw too_big();
    // Read to the end rather than to st_size: the file may grow while it is read.
    std::string text;
    char buf[8192];
    for (;;) {
        const ssize_t got = ::read(fd.get(), buf, sizeof buf);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) throw SmallFileError(std::string("cannot be read: ") + std::strerror(errno));
        if (got == 0) return text;
        text.append(buf, static_cast<std::size_t>(got));
        if (text.size() > max_bytes) throw too_big();
    }
}

}  // namespace gol::runner
