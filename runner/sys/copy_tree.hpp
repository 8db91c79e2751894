// Copies a bot's files for the sandbox or a build, without ever following a link out of them.
#pragma once

#include <sys/types.h>

#include <filesystem>

namespace gol::runner {

// Copies `from` (a folder, or one file) to `to`, which must not exist yet. Folders, regular files
// and symbolic links (as links, never followed) are copied; other kinds (fifos, sockets, devices)
// are left out. Everything copied is readable by others, and executable by others where the
// owner could execute it, so that a sandbox's user other than ours can run it.
// Throws std::filesystem::filesystem_error.
void copy_tree(const std::filesystem::path& from, const std::filesystem::path& to);

// Gives `dir` and everything in it, links themselves included, to `uid`/`gid`.
void chown_tree(const std::filesystem::path& dir, uid_t uid, gid_t gid);

}  // namespace gol::runner
