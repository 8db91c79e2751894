#include "runner/sandbox/long_argument.hpp"

#include "runner/sandbox/helper_programs.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace gol::runner {

namespace fs = std::filesystem;

std::optional<fs::path> long_argument_library() { return find_helper(HelperKind::library, "libgol_long_argument.so"); }

std::vector<std::string> long_argument_environment(const fs::path& library) {
    return {"LD_PRELOAD=" + library.string(), std::string(GOL_LONG_ARGUMENTS_VAR) + "=0:" + std::to_string(long_argument_fd)};
}

LongArgument::LongArgument(std::string_view text)
    : fd_(::memfd_create("gol-board", MFD_CLOEXEC)), size_(text.size()) {
    if (!fd_) throw std::runtime_error(std::string("memfd_create: ") + std::strerror(errno));
    for (std::string_view rest = text; !rest.empty();) {
        ssize_t n = ::write(fd_.get(), rest.data(), rest.size());
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) throw std::runtime_error(std::string("writing the board to a memfd: ") + std::strerror(errno));
        rest.remove_prefix(static_cast<std::size_t>(n));
    }
    if (::lseek(fd_.get(), 0, SEEK_SET) != 0)
        throw std::runtime_error(std::string("lseek on the board's memfd: ") + std::strerror(errno));
}

bool LongArgument::taken() const {
    return ::lseek(fd_.get(), 0, SEEK_CUR) == static_cast<off_t>(size_);
}

}  // namespace gol::runner
