// Fetching a bot from a contestant's git repository (`runner import --git`, docs/league.md,
// "Bots from git repositories"): one branch's last commit, by the `git` program, into a bot
// folder of the bots folder, its state beside it (bots/repository_bot.hpp). A repository is a
// stranger's: no hook and none of its configuration runs, only the transports named below, no
// submodule, a depth-1 fetch bounded in time and size, no link checked out (each becomes a file
// holding its target's text), no path outside the folder; what it holds is then a bot like any
// other, built and run only in the sandbox.
#pragma once

#include "runner/bots/repository_bot.hpp"

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace gol::runner {

// A repository as a tournament file or `runner import --git` names it.
struct GitSource {
    std::string name;  // the bot's folder
    std::string url;
    std::string branch = "main";
};

struct GitOptions {
    // file:// URLs (the tests' local repositories); off by default, since a tournament file
    // could otherwise read any repository of the host.
    bool allow_file = false;
    std::chrono::seconds timeout{300};
    // The largest file a fetch may write (the pack, or one object; RLIMIT_FSIZE). What a commit
    // may hold is a bot's copy's limits (copy_tree.hpp), checked before it is checked out.
    std::uint64_t max_fetch_bytes = std::uint64_t{256} << 20;
};

enum class GitStatus { imported, updated, unchanged, failed };
std::string_view name(GitStatus status);

struct GitFetch {
    GitStatus status = GitStatus::failed;
    std::string commit;  // the commit the bot folder holds now; "" when it holds none
    std::string detail;  // failed: why (the folder keeps its last good commit)
};

// Fetches the branch's last commit into `bots_dir`/NAME, replacing the folder in one rename
// when the commit is new, and records the outcome in the bot's state (a failure with its
// reason and time, beside the commit the folder keeps). A folder NAME that no fetch wrote is
// never replaced. Checks the source first (refused_git_url, refused_branch, refused_bot_name).
GitFetch fetch_git_bot(const GitSource& source, const std::filesystem::path& bots_dir, const GitOptions& options);

}  // namespace gol::runner
