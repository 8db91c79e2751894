// Copies a bot's files for the sandbox, or a build's output for the cache, by descriptors: no
// path is resolved twice, no link is followed, and a copy never holds more than a bot may.
#pragma once

#include "runner/sys/process.hpp"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace gol::runner {

// The most a copied tree may hold, and so a bot's folder (content_hash.hpp checks it before the
// copy) and what a build leaves in the cache: checked while copying, before a byte is written
// beyond them. Every entry below the top counts toward max_tree_files, a folder or a link as a
// file does; a sparse file counts at its full size.
inline constexpr std::size_t max_tree_files = 10000;
inline constexpr std::uint64_t max_tree_bytes = std::uint64_t{256} << 20;
// Folders deeper than this are refused: each level holds a descriptor while it is copied.
inline constexpr int max_tree_depth = 100;

// Names that are neither hashed nor copied: version control and interpreters' caches. What a
// bot plays with is what its hash covers.
bool left_out_of_copies(std::string_view name);

// The links of a tree: each one's path within it ("lib/up.py") and its target's text.
using TreeLinks = std::map<std::string, std::string>;

// The most links one path is resolved through, as the kernel's own limit (ELOOP).
inline constexpr int max_link_hops = 40;

// Why the link at `rel` in a tree whose links are `links` (itself among them) leads out of the
// tree, or nullopt when it stays inside. Its target is resolved as the kernel resolves it,
// through the tree's other links, not by its text alone: with "a -> .", "b -> a/.." leads out
// ("to a/.., through a -> ."). An absolute target leads out; a chain of more than max_link_hops
// links is refused too, and so is a link whose resolution walks paths too long for any bot's
// link (a bounded cost per link). Whatever is not one of `links` counts as a folder.
std::optional<std::string> link_leads_out(const TreeLinks& links, const std::string& rel);

// Why a copy was refused or failed, naming the entry (its path within the tree) and the cause:
// "escape: a link that leads out of the folder (to /etc/passwd)", "2048 MiB of files, over the
// 256 MiB a copy may hold (a sparse file counts at its full size)".
class CopyError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Whose files are copied, and who may read the copy besides the runner.
struct CopyAccess {
    // Each copied entry's owner and group; nullopt: the runner's.
    std::optional<Identity> owner;
    // The host's own programs (the runner's helpers, an interpreter's folder): copied whole, as
    // they are (no limits, nothing left out, links kept wherever they point, still never
    // followed), and readable by every user. Otherwise a stranger's files (a bot's, what its
    // build left): held to the limits and rules above, for owner and group alone.
    bool host = false;
};

// Copies `from` (a folder, or one regular file; a link is refused) to `to`, whose parent must
// exist and which must not. Folders, regular files and links that stay inside `from` (as
// links, never followed; judged by link_leads_out on the copy as made, once it is whole) are
// copied; other kinds (FIFOs, sockets, devices) are left out, and so
// are the names left_out_of_copies() gives. Regular files are copied hole by hole (SEEK_DATA,
// SEEK_HOLE), so a sparse file stays sparse. Modes: folders 0750, files 0640, or 0750 when any
// execute bit of the source is set (0755 and 0644 for the host's files). Throws CopyError over
// the limits above, at a link leading out, or when an entry changes kind or size while it is
// copied; what was copied so far is left for the caller to remove.
void copy_tree(const std::filesystem::path& from, const std::filesystem::path& to, const CopyAccess& access = {});

// An empty folder as copy_tree makes them, for copies to go in (`dir` must not exist).
void make_copy_folder(const std::filesystem::path& dir, const CopyAccess& access);

}  // namespace gol::runner
