// A bot from a contestant's git repository (`runner import --git`, docs/league.md, "Bots from
// git repositories"). Beside the bots, never inside one (a bot's files decide its content hash):
// BOTS/.repositories/NAME.json, what the last fetch found, written by import; and
// BOTS/.repositories/NAME.good/, a copy of the last commit that built, kept by the league, which
// plays it when a newer commit does not build. Hidden, so no league takes them for bots.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace gol::runner {

// Why `url` may not be fetched, none when it may: https://, git://, ssh:// (and file:// when
// allowed); never a transport helper ("ext::", any "X::"), a leading '-', spaces or control
// characters.
std::optional<std::string> refused_git_url(std::string_view url, bool allow_file);

// Why `branch` is no branch name to fetch, none when it is.
std::optional<std::string> refused_branch(std::string_view branch);

// Why `name` may not be a bot's folder, none when it may: letters, digits, '-', '_' and '.', not
// first.
std::optional<std::string> refused_bot_name(std::string_view name);

// The bot's name a URL suggests: its last part without ".git" ("https://host/alice/life.git":
// "life"); "" when that is no name refused_bot_name() allows.
std::string bot_name_from_url(std::string_view url);

struct RepositoryState {
    std::string url, branch;
    std::string commit;   // the commit BOTS/NAME holds; "" before a fetch succeeded
    std::string fetched;  // when it was fetched (UTC)
    std::string error;    // why the last fetch failed; "" when it succeeded
    std::string failed;   // when it failed (UTC)

    bool operator==(const RepositoryState&) const = default;
};

// The state of the bot NAME, none when it came from no repository. Throws std::runtime_error
// naming the file when it cannot be read or is not a state.
std::optional<RepositoryState> read_repository_state(const std::filesystem::path& bots_dir, const std::string& name);

// Every repository bot's state, by name: what the league warns of. A state that cannot be read
// is one with that error.
std::map<std::string, RepositoryState> repository_states(const std::filesystem::path& bots_dir);

// Replaces the state atomically. Throws std::runtime_error.
void write_repository_state(const std::filesystem::path& bots_dir, const std::string& name,
                            const RepositoryState& state);

// The last commit of NAME that built: its copy's folder and its commit.
struct GoodCommit {
    std::filesystem::path dir;
    std::string commit;
};
std::optional<GoodCommit> last_good_commit(const std::filesystem::path& bots_dir, const std::string& name);

// Keeps `dir` (the bot NAME at `commit`, which has just built) as its last good commit, unless
// that commit is kept already; the copy replaces the old one in one rename. Throws
// std::runtime_error (a copy over a bot's limits among them, copy_tree.hpp).
void keep_good_commit(const std::filesystem::path& bots_dir, const std::string& name, const std::filesystem::path& dir,
                      const std::string& commit);

}  // namespace gol::runner
