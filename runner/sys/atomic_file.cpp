#include "runner/sys/atomic_file.hpp"

#include "runner/sys/unique_fd.hpp"

#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>

namespace gol::runner {

namespace fs = std::filesystem;

namespace {

[[noreturn]] void fail(const std::string& what, const fs::path& path) {
    throw std::runtime_error(what + " " + path.string() + ": " + std::strerror(errno));
}

}  // namespace

void write_file_atomically(const fs::path& path, std::string_view contents) {
    const fs::path dir = path.parent_path().empty() ? fs::path(".") : path.parent_path();
    fs::create_directories(dir);
    std::string tmpl = (dir / ("." + path.filename().string() + ".XXXXXX")).string();
    UniqueFd fd(::mkostemp(tmpl.data(), O_CLOEXEC));
    if (!fd) fail("cannot create a temporary file for", path);
    const fs::path tmp = tmpl;
    try {
        std::size_t done = 0;
        while (done < contents.size()) {
            ssize_t n = ::write(fd.get(), contents.data() + done, contents.size() - done);
            if (n < 0) {
                if (errno == EINTR) continue;
                fail("cannot write", tmp);
            }
            done += static_cast<std::size_t>(n);
        }
        ::fchmod(fd.get(), 0644);
        if (::fsync(fd.get()) != 0) fail("cannot fsync", tmp);
        fd.reset();
        if (::rename(tmp.c_str(), path.c_str()) != 0) fail("cannot rename into", path);
    } catch (...) {
        ::unlink(tmp.c_str());
        throw;
    }
    UniqueFd dirfd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (dirfd) ::fsync(dirfd.get());
}

void swap_in_folder(const fs::path& staging, const fs::path& target) {
    std::error_code ec;
    // RENAME_EXCHANGE swaps the two in one step; RENAME_NOREPLACE never merges into a folder
    // made meanwhile.
    const unsigned flags = fs::exists(fs::symlink_status(target, ec)) ? RENAME_EXCHANGE : RENAME_NOREPLACE;
    if (::renameat2(AT_FDCWD, staging.c_str(), AT_FDCWD, target.c_str(), flags) != 0) fail("cannot move a new folder to", target);
}

}  // namespace gol::runner
