#include "runner/sandbox/work_area.hpp"

#include "runner/sandbox/tmpfs_mount.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <stdexcept>
#include <string>

namespace gol::runner {

namespace fs = std::filesystem;

namespace {

constexpr const char* kPrefix = "gol-run";
constexpr const char* kLock = ".lock";

// An area whose lock nobody holds belongs to a runner that is gone. One without a lock file is
// still being made, unless it is old.
bool stale(const fs::path& area) {
    UniqueFd lock(::open((area / kLock).c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW));
    if (!lock) {
        std::error_code ec;
        const auto age = fs::file_time_type::clock::now() - fs::last_write_time(area, ec);
        return !ec && age > std::chrono::minutes(1);
    }
    return ::flock(lock.get(), LOCK_EX | LOCK_NB) == 0;
}

void remove_stale_areas(const fs::path& parent, const fs::path& own) {
    std::error_code ec;
    for (fs::directory_iterator it(parent, ec), end; !ec && it != end; it.increment(ec)) {
        const fs::path p = it->path();
        if (p == own || !p.filename().string().starts_with(std::string(kPrefix) + "-")) continue;
        if (it->is_directory(ec) && !it->is_symlink(ec) && stale(p)) {
            unmount_below(p);  // a build's bounded folder, when the runner was killed during the build
            remove_tree(p);
        }
    }
}

// Every folder from `dir` up must be searchable by others for another user to reach `dir`.
void check_reachable(const fs::path& dir) {
    for (fs::path p = dir; !p.empty(); p = p.parent_path()) {
        struct stat st {};
        if (::stat(p.c_str(), &st) != 0 || !(st.st_mode & S_IXOTH))
            throw std::runtime_error("the sandbox's user cannot reach " + dir.string() + ": " + p.string() +
                                     " is not searchable by others; set TMPDIR to a folder that is (such as /tmp)");
        if (p == p.root_path()) break;
    }
}

}  // namespace

WorkArea::WorkArea(bool reachable) : dir_(std::string(kPrefix) + "-" + std::to_string(::getpid())) {
    // Locked before it has its name: another run never sees the lock file unlocked.
    const fs::path unnamed = path() / (std::string(kLock) + ".new");
    lock_.reset(::open(unnamed.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600));
    if (!lock_ || ::flock(lock_.get(), LOCK_EX | LOCK_NB) != 0 || ::rename(unnamed.c_str(), (path() / kLock).c_str()) != 0)
        throw std::runtime_error("cannot lock the work area " + path().string() + ": " + std::strerror(errno));
    remove_stale_areas(path().parent_path(), path());
    if (reachable) {
        fs::permissions(path(), fs::perms::owner_all | fs::perms::group_exec | fs::perms::others_exec);
        check_reachable(path());
    }
}

}  // namespace gol::runner
