#include "runner/sys/copy_tree.hpp"

#include "runner/sys/temp_dir.hpp"
#include "runner/sys/unique_fd.hpp"

#include <fcntl.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <deque>
#include <vector>

namespace gol::runner {

namespace fs = std::filesystem;

bool left_out_of_copies(std::string_view name) {
    return name == ".git" || name == "__pycache__" || name.ends_with(".pyc");
}

namespace {

// How many of the links a refused one was resolved through its message names.
constexpr int kLinksNamed = 8;
// The most characters of paths looked up to resolve one link: a link of a real bot needs a few
// hundred; a stranger's 10000 links through long names and deep folders would otherwise cost
// minutes.
constexpr std::size_t kResolveBudget = 1 << 16;

}  // namespace

std::optional<std::string> link_leads_out(const TreeLinks& links, const std::string& rel) {
    const std::string& target = links.at(rel);
    std::string through;  // the first links followed, for the message
    int hops = 0;
    auto out = [&] { return "to " + target + (through.empty() ? "" : ", through " + through); };
    if (target.starts_with('/')) return out();
    // Where the path is so far, as a path from the top ("lib/src"), and where each of its folders
    // begins in it; what is left of the path to walk.
    std::string key;
    std::vector<std::size_t> starts;
    std::deque<std::string> left;
    auto push_front = [&left](const std::string& text) {
        std::vector<std::string> parts;
        for (std::size_t start = 0, end; start <= text.size(); start = end + 1) {
            end = std::min(text.find('/', start), text.size());
            parts.push_back(text.substr(start, end - start));
        }
        left.insert(left.begin(), parts.begin(), parts.end());
    };
    // The link's own folder first: its parts are folders of the tree, never links.
    for (const fs::path& part : fs::path(rel).parent_path()) {
        starts.push_back(key.size());
        key += (key.empty() ? "" : "/") + part.string();
    }
    push_front(target);
    std::size_t work = 0;
    while (!left.empty()) {
        const std::string part = std::move(left.front());
        left.pop_front();
        if (part.empty() || part == ".") continue;
        if (part == "..") {
            if (starts.empty()) return out();
            key.resize(starts.back());
            starts.pop_back();
            continue;
        }
        starts.push_back(key.size());
        key += (key.empty() ? "" : "/") + part;
        if ((work += key.size()) > kResolveBudget)
            return "to " + target + ", through a path too long to follow (over " + std::to_string(kResolveBudget) +
                   " characters)";
        const auto link = links.find(key);
        if (link == links.end()) continue;
        key.resize(starts.back());
        starts.pop_back();
        if (++hops > max_link_hops) return "to " + target + ", through more than " + std::to_string(max_link_hops) + " links in a row";
        if (hops <= kLinksNamed) through += (through.empty() ? "" : ", ") + link->first + " -> " + link->second;
        else if (hops == kLinksNamed + 1) through += ", ...";
        if (link->second.starts_with('/')) return out();
        push_front(link->second);
    }
    return std::nullopt;
}

namespace {

constexpr int kDirFlags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;

[[noreturn]] void fail(const fs::path& rel, const std::string& what) {
    throw CopyError(rel.empty() ? what : rel.generic_string() + ": " + what);
}

[[noreturn]] void fail_errno(const fs::path& rel, const char* step) {
    fail(rel, std::string(step) + ": " + std::strerror(errno));
}

// "bot/" names the folder "bot", as "bot" does.
fs::path without_slash(const fs::path& p) {
    const fs::path normal = p.lexically_normal();
    return normal.filename().empty() ? normal.parent_path() : normal;
}

// A folder's mode, or a file's that is `executable`.
mode_t copy_mode(const CopyAccess& access, bool executable) {
    const mode_t base = access.host ? 0755 : 0750;
    return executable ? base : base & 0666;
}

// One copy in progress: the limits' counts, and how each entry is made.
class Copier {
public:
    explicit Copier(const CopyAccess& access) : access_(access) {}

    // The entry `from` names in `from_dir`, of kind `st`, as `to` in `to_dir`; `rel` names it in
    // messages and judges its links.
    void entry(int from_dir, const std::string& from, int to_dir, const std::string& to, const struct stat& st,
               const fs::path& rel, int depth) {
        if (S_ISDIR(st.st_mode)) folder(from_dir, from, to_dir, to, rel, depth);
        else if (S_ISREG(st.st_mode)) file(from_dir, from, to_dir, to, st, rel);
        else if (S_ISLNK(st.st_mode)) link(from_dir, from, to_dir, to, rel);
        // FIFOs, sockets and devices are left out: a bot has no use for them in a read-only copy.
    }

    // Each link of the whole copy resolved through the copy's other links, which no one but the
    // runner changes: the source's could change while it is copied.
    void check_links() const {
        for (const auto& [rel, target] : links_)
            if (std::optional<std::string> why = link_leads_out(links_, rel))
                fail(rel, "a link that leads out of the folder (" + *why + "): links must point within it");
    }

private:
    const CopyAccess& access_;
    std::size_t entries_ = 0;
    std::uint64_t bytes_ = 0;
    TreeLinks links_;  // a stranger's copy's, to be checked when it is whole

    // The new entry's owner, never through a link (the entry may be one).
    void own(int to_dir, const std::string& name, const fs::path& rel) const {
        if (!access_.owner) return;
        if (::fchownat(to_dir, name.c_str(), access_.owner->uid, access_.owner->gid, AT_SYMLINK_NOFOLLOW) != 0)
            fail_errno(rel, "chown");
    }

    // Every entry made counts, a folder or a link as a file does: each is an inode of the copy,
    // and each costs a copy and a removal on every run.
    void count(std::uint64_t size) {
        if (access_.host) return;
        if (++entries_ > max_tree_files)
            fail({}, "more than " + std::to_string(max_tree_files) + " files, folders and links, the most a copy may hold");
        if ((bytes_ += size) > max_tree_bytes)
            fail({}, std::to_string(bytes_ >> 20) + " MiB of files or more, over the " +
                         std::to_string(max_tree_bytes >> 20) +
                         " MiB a copy may hold (a sparse file counts at its full size)");
    }

    void folder(int from_dir, const std::string& from_name, int to_dir, const std::string& to_name, const fs::path& rel,
                int depth) {
        if (!access_.host && depth > max_tree_depth) fail({}, "folders nested more than " + std::to_string(max_tree_depth) + " deep");
        if (depth > 0) count(0);  // the copy's top is the bot's own folder
        UniqueFd from(::openat(from_dir, from_name.c_str(), kDirFlags));
        if (!from) fail_errno(rel, "open");
        if (::mkdirat(to_dir, to_name.c_str(), 0700) != 0) fail_errno(rel, "mkdir");
        own(to_dir, to_name, rel);
        UniqueFd to(::openat(to_dir, to_name.c_str(), kDirFlags));
        if (!to) fail_errno(rel, "open the copy");
        // Listed whole first, then copied in name order: one descriptor per level, and the same
        // order (and so the same first refusal) every time.
        std::optional<std::vector<std::string>> names = folder_names(from.get());
        if (!names) fail_errno(rel, "list");
        if (!access_.host) std::erase_if(*names, left_out_of_copies);
        std::sort(names->begin(), names->end());
        for (const std::string& n : *names) {
            struct stat st {};
            if (::fstatat(from.get(), n.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) fail_errno(rel / n, "stat");
            entry(from.get(), n, to.get(), n, st, rel / n, depth + 1);
        }
        if (::fchmod(to.get(), copy_mode(access_, true)) != 0) fail_errno(rel, "chmod");
    }

    void file(int from_dir, const std::string& from_name, int to_dir, const std::string& to_name,
              const struct stat& listed, const fs::path& rel) {
        count(static_cast<std::uint64_t>(listed.st_size));
        // Never followed, never waited on: an entry swapped for a link or a FIFO since it was
        // listed fails here rather than leading elsewhere or hanging.
        UniqueFd in(::openat(from_dir, from_name.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
        if (!in) fail_errno(rel, "open");
        struct stat st {};
        if (::fstat(in.get(), &st) != 0) fail_errno(rel, "stat");
        if (!S_ISREG(st.st_mode) || st.st_ino != listed.st_ino || st.st_size != listed.st_size)
            fail(rel, "it changed while being copied");
        UniqueFd out(::openat(to_dir, to_name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600));
        if (!out) fail_errno(rel, "create");
        own(to_dir, to_name, rel);
        copy_data(in.get(), out.get(), st.st_size, rel);
        if (::fchmod(out.get(), copy_mode(access_, (st.st_mode & 0111) != 0)) != 0) fail_errno(rel, "chmod");
    }

    // Only the data: a hole of the source stays a hole (the end is set with ftruncate). A file
    // system without SEEK_DATA reports the whole file as data, and the copy is dense.
    static void copy_data(int in, int out, off_t size, const fs::path& rel) {
        for (off_t pos = 0; pos < size;) {
            const off_t data = ::lseek(in, pos, SEEK_DATA);
            if (data < 0 && errno == ENXIO) break;  // nothing but a hole to the end
            if (data < 0) fail_errno(rel, "seek");
            if (data >= size) break;
            off_t hole = ::lseek(in, data, SEEK_HOLE);
            if (hole < 0) fail_errno(rel, "seek");
            hole = std::min(hole, size);
            // sendfile reads at `at`, moving it on, and writes where `out` stands.
            if (::lseek(out, data, SEEK_SET) < 0) fail_errno(rel, "seek");
            for (off_t at = data; at < hole;) {
                const ssize_t n = ::sendfile(out, in, &at, static_cast<std::size_t>(hole - at));
                if (n < 0 && errno == EINTR) continue;
                if (n < 0) fail_errno(rel, "copy");
                if (n == 0) fail(rel, "it changed while being copied");
            }
            pos = hole;
        }
        if (::ftruncate(out, size) != 0) fail_errno(rel, "truncate");
    }

    void link(int from_dir, const std::string& from_name, int to_dir, const std::string& to_name, const fs::path& rel) {
        count(0);
        std::vector<char> target(PATH_MAX + 1);
        const ssize_t n = ::readlinkat(from_dir, from_name.c_str(), target.data(), target.size());
        if (n < 0) fail_errno(rel, "readlink");
        if (static_cast<std::size_t>(n) == target.size()) fail(rel, "a link target longer than PATH_MAX");
        const std::string text(target.data(), static_cast<std::size_t>(n));
        if (!access_.host) links_.emplace(rel.generic_string(), text);
        if (::symlinkat(text.c_str(), to_dir, to_name.c_str()) != 0) fail_errno(rel, "symlink");
        own(to_dir, to_name, rel);
    }
};

}  // namespace

void make_copy_folder(const fs::path& dir, const CopyAccess& access) {
    if (::mkdir(dir.c_str(), 0700) != 0) fail_errno(dir, "mkdir");
    if (access.owner && ::lchown(dir.c_str(), access.owner->uid, access.owner->gid) != 0) fail_errno(dir, "chown");
    if (::chmod(dir.c_str(), copy_mode(access, true)) != 0) fail_errno(dir, "chmod");
}

void copy_tree(const fs::path& from_path, const fs::path& to_path, const CopyAccess& access) {
    const fs::path from = without_slash(from_path), to = without_slash(to_path);
    const fs::path from_parent = from.has_parent_path() ? from.parent_path() : ".";
    const fs::path to_parent = to.has_parent_path() ? to.parent_path() : ".";
    // The parents are the caller's own (a bot's resolved folder, the work area): only the
    // entries from here down are a stranger's.
    UniqueFd from_dir(::open(from_parent.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (!from_dir) fail_errno(from_parent, "open");
    UniqueFd to_dir(::open(to_parent.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (!to_dir) fail_errno(to_parent, "open");
    const std::string name = from.filename().string();
    struct stat st {};
    if (::fstatat(from_dir.get(), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) fail_errno(from, "stat");
    if (!S_ISDIR(st.st_mode) && !S_ISREG(st.st_mode))
        fail(from, "neither a folder nor a regular file (a link is resolved before it is copied)");
    // A folder's entries are named within it; a single file by its name.
    const fs::path rel = S_ISDIR(st.st_mode) ? fs::path() : fs::path(name);
    Copier copier(access);
    copier.entry(from_dir.get(), name, to_dir.get(), to.filename().string(), st, rel, 0);
    copier.check_links();
}

}  // namespace gol::runner
