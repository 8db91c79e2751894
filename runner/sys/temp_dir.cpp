#include "runner/sys/temp_dir.hpp"

#include "runner/sys/unique_fd.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <vector>

namespace gol::runner {

namespace fs = std::filesystem;

TempDir::TempDir(const std::string& prefix, const fs::path& parent) {
    const fs::path where = parent.empty() ? fs::temp_directory_path() : parent;
    std::string tmpl = (where / (prefix + "-XXXXXX")).string();
    if (!::mkdtemp(tmpl.data()))
        throw std::runtime_error("cannot create a temporary directory in " + where.string() + ": " +
                                 std::strerror(errno));
    path_ = tmpl;
}

TempDir::TempDir(TempDir&& other) noexcept : path_(std::move(other.path_)) { other.path_.clear(); }

TempDir::~TempDir() {
    // Nothing useful to do about a failed clean-up in a destructor.
    if (!path_.empty()) remove_tree(path_);
}

namespace {

constexpr int kDirFlags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;

// One folder on the way down: who it is (to check the way back up), and its subfolders still
// to remove, the one being removed last.
struct Level {
    dev_t dev = 0;
    ino_t ino = 0;
    std::vector<std::string> folders;
    std::string current;
};

// Removes every entry of `dir` but its folders, which it lists for later. False when an entry
// could not be removed or the folder not read.
bool clear_files(int dir, Level& level) {
    struct stat st {};
    if (::fstat(dir, &st) != 0) return false;
    level.dev = st.st_dev;
    level.ino = st.st_ino;
    const std::optional<std::vector<std::string>> names = folder_names(dir);
    if (!names) return false;
    bool ok = true;
    for (const std::string& name : *names) {
        // Whatever it is now: a folder refuses a plain unlink (EISDIR), anything else goes.
        if (::unlinkat(dir, name.c_str(), 0) == 0 || errno == ENOENT) continue;
        if (errno == EISDIR) level.folders.push_back(name);
        else ok = false;
    }
    return ok;
}

}  // namespace

std::optional<std::vector<std::string>> folder_names(int dir) {
    const int listing = ::dup(dir);
    DIR* d = listing < 0 ? nullptr : ::fdopendir(listing);
    if (!d) {
        if (listing >= 0) ::close(listing);
        return std::nullopt;
    }
    std::vector<std::string> names;
    while (const dirent* e = ::readdir(d))
        if (const std::string_view name = e->d_name; name != "." && name != "..") names.emplace_back(name);
    ::closedir(d);
    return names;
}

bool remove_tree(const fs::path& path) noexcept {
    try {
        fs::path p = path.lexically_normal();
        if (p.filename().empty()) p = p.parent_path();
        const fs::path parent_path = p.has_parent_path() ? p.parent_path() : ".";
        UniqueFd parent(::open(parent_path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
        if (!parent) return errno == ENOENT;
        const std::string name = p.filename().string();
        if (::unlinkat(parent.get(), name.c_str(), 0) == 0 || errno == ENOENT) return true;
        if (errno != EISDIR) return false;
        UniqueFd dir(::openat(parent.get(), name.c_str(), kDirFlags));
        if (!dir) return false;
        // Down into one folder at a time and back up through "..", checked against the folder
        // left: a tree deeper than the descriptors a process may hold is removed too.
        bool ok = true;
        std::vector<Level> levels(1);
        ok &= clear_files(dir.get(), levels.back());
        while (!levels.empty()) {
            Level& here = levels.back();
            if (!here.folders.empty()) {
                here.current = here.folders.back();
                here.folders.pop_back();
                UniqueFd child(::openat(dir.get(), here.current.c_str(), kDirFlags));
                if (!child) {
                    // Swapped for a link or a file since it was listed: it goes as what it is.
                    ok &= ::unlinkat(dir.get(), here.current.c_str(), 0) == 0;
                    continue;
                }
                dir = std::move(child);
                levels.emplace_back();
                ok &= clear_files(dir.get(), levels.back());
                continue;
            }
            levels.pop_back();
            if (levels.empty()) break;
            UniqueFd up(::openat(dir.get(), "..", kDirFlags));
            struct stat st {};
            // A folder moved elsewhere meanwhile: stop rather than remove where it now lies.
            if (!up || ::fstat(up.get(), &st) != 0 || st.st_dev != levels.back().dev || st.st_ino != levels.back().ino)
                return false;
            dir = std::move(up);
            ok &= ::unlinkat(dir.get(), levels.back().current.c_str(), AT_REMOVEDIR) == 0;
        }
        return ::unlinkat(parent.get(), name.c_str(), AT_REMOVEDIR) == 0 && ok;
    } catch (...) {
        return false;
    }
}

}  // namespace gol::runner
