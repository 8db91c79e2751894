#include "runner/sys/copy_tree.hpp"

#include <unistd.h>

#include <cerrno>
#include <system_error>

namespace gol::runner {

namespace fs = std::filesystem;

namespace {

void open_up(const fs::path& p, fs::perms owner) {
    fs::perms add = fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read;
    if ((owner & fs::perms::owner_exec) != fs::perms::none)
        add |= fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec;
    fs::permissions(p, add, fs::perm_options::add);
}

void copy_entry(const fs::path& from, const fs::path& to, const fs::file_status& st) {
    if (fs::is_symlink(st)) {
        fs::copy_symlink(from, to);
    } else if (fs::is_directory(st)) {
        fs::create_directory(to);
        open_up(to, fs::perms::owner_exec);
    } else if (fs::is_regular_file(st)) {
        fs::copy_file(from, to);
        open_up(to, st.permissions());
    }
}

void lchown_or_throw(const fs::path& p, uid_t uid, gid_t gid) {
    if (::lchown(p.c_str(), uid, gid) != 0)
        throw fs::filesystem_error("lchown", p, std::error_code(errno, std::generic_category()));
}

}  // namespace

void copy_tree(const fs::path& from, const fs::path& to) {
    const fs::file_status top = fs::symlink_status(from);
    copy_entry(from, to, top);
    if (!fs::is_directory(top)) return;
    for (auto it = fs::recursive_directory_iterator(from); it != fs::recursive_directory_iterator(); ++it)
        // Lexically: fs::relative would resolve a link (main.py -> bot.py) and copy it over its
        // target, or (a link to ../x) to a place outside `to`.
        copy_entry(it->path(), to / it->path().lexically_relative(from), it->symlink_status());
}

void chown_tree(const fs::path& dir, uid_t uid, gid_t gid) {
    lchown_or_throw(dir, uid, gid);
    for (const auto& entry : fs::recursive_directory_iterator(dir)) lchown_or_throw(entry.path(), uid, gid);
}

}  // namespace gol::runner
