// The league's results on disk: one durable record per finished game, with its replay and log,
// and an index of the league's current schedule. A record exists only once its game is over.
#pragma once

#include "runner/league/game_record.hpp"
#include "runner/league/league_schedule.hpp"
#include "runner/sys/unique_fd.hpp"

#include <nlohmann/json.hpp>

#include <array>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace gol::runner {

struct StoreError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct ExcludedBot {
    std::string bot;
    std::string reason;
};
// As league.json and the JSON table write it, and the reader of league.json: the same fields.
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(ExcludedBot, bot, reason)

// A bot from a git repository as the league played it (docs/league.md, "Bots from git
// repositories"): where from, the commit it played, and a warning when that is not the branch's
// newest (a failed fetch, a commit that does not build). One with no folder (its first fetch
// failed) has no commit, and only its warning.
struct RepositoryBot {
    std::string bot, url, branch, commit;
    std::string warning;

    bool operator==(const RepositoryBot&) const = default;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(RepositoryBot, bot, url, branch, commit, warning)

// What `runner table` needs to rebuild the table without the bots: the league's bots with their
// content hashes, exclusions and settings, as of the last league run. Its games are
// expected_games(index): the store lists their keys in the index.
struct LeagueIndex {
    LeagueSettings settings;
    std::string scoring = "wins";
    std::vector<ScheduledBot> bots;
    std::vector<AddedPair> added;  // --until-separated: the pairs given two more games, in order
    std::vector<ExcludedBot> excluded;
    // The folder or file of each bot that has played under a name in this store, kept across
    // runs: when a newcomer takes a name, the bot that had it keeps it (docs/league.md).
    std::map<std::string, std::string> paths;
    std::vector<RepositoryBot> repositories;
};

// The index as read: with the keys of the games it lists, which are expected_games' when this
// runner wrote it, and may be others in an index of another runner's (other rules) or edited.
struct StoredIndex : LeagueIndex {
    std::vector<std::string> keys;
};

// The games a league of the index's bots and settings expects in the store, in the index's order:
// the schedule's (schedule_league), then the added ones (schedule_added). Throws
// std::invalid_argument for an added pair naming a bot the index does not have.
std::vector<ScheduledGame> expected_games(const LeagueIndex& index);

// One round an arena adds to its index (docs/arena.md, "What the arena keeps"): the bots new
// with it, the pair given two more games, and those games' keys, in order.
struct IndexRound {
    std::vector<ScheduledBot> bots;  // appended to the index's bots
    AddedPair pair;                  // appended to its added pairs
    std::array<std::string, 2> keys;  // appended to its games
};

// The games' keys, in order.
std::vector<std::string> keys_of(std::span<const ScheduledGame> games);

// --until-separated: what a bot did when shown again its seat's boards of the first ticks of a
// stored game, with another seed (docs/league.md). Kept by the bot's content hash; it holds for
// a league whose games include `game`.
struct RepeatCheck {
    std::string bot, hash;
    std::string game;  // the key of the game whose boards it was shown
    int seat = 1;
    int ticks = 0;  // the boards shown
    bool repeats = false;
    std::string why;  // when it did not repeat: where it first differed
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(RepeatCheck, bot, hash, game, seat, ticks, repeats, why)

// Who opens a store. A league (or its --plan) rewrites the index, so it holds the store alone; a
// game played on its own (--game) adds only that game's files, so any number of them, on any
// machines sharing the folder, hold it together, but never with a league.
enum class StoreUse { league, one_game };

class ResultsStore {
public:
    // Opens (creating) `dir` and locks it as `use` needs. Throws StoreError when the directory
    // cannot be used or is locked.
    explicit ResultsStore(std::filesystem::path dir, StoreUse use = StoreUse::league);

    const std::filesystem::path& dir() const { return dir_; }
    // Replay and log first, the record last: a record never points at a missing replay.
    void save(const GameRecord& record, const std::string& replay, const std::string& log);
    // Writes the index, listing the games it expects, and returns them (expected_games). The
    // rounds appended since the last one are in it, if they are in `index`, or gone.
    std::vector<ScheduledGame> save_index(const LeagueIndex& index);
    // Adds a round to the index save_index last wrote, as a line of the rounds file: a cost that
    // does not grow with the index. Only for an index whose schedule lists no games (an arena's,
    // games_per_pair 0), where new bots add no games but the round's. Throws StoreError, the
    // index as it was: also before save_index, and after a failure that left the rounds file
    // broken, until save_index writes the index whole again.
    void append_index(const IndexRound& round);
    // Removes what the store holds of the game `key`, its record first (a replay without a
    // record is not counted), and returns the files removed. Throws StoreError.
    std::vector<std::filesystem::path> forget(const std::string& key);

    std::filesystem::path replay_path(const std::string& key) const;
    // The check of the bot with content hash `hash`, or none (also when its file cannot be read);
    // save_repeat replaces it; forget_repeat removes it, true when there was one.
    std::optional<RepeatCheck> load_repeat(const std::string& hash) const;
    void save_repeat(const RepeatCheck& check);
    bool forget_repeat(const std::string& hash);
    // Where the game's viewer page goes (docs/viewer.md): made from its replay, so it can be
    // made again.
    std::filesystem::path viewer_path(const std::string& key) const;

private:
    std::filesystem::path record_path(const std::string& key) const;
    std::filesystem::path log_path(const std::string& key) const;
    std::filesystem::path repeat_path(const std::string& hash) const;

    std::filesystem::path dir_;
    UniqueFd lock_;
    std::string index_id_;  // of the index save_index last wrote, which the rounds file names
    UniqueFd rounds_;       // the rounds file, once a round has been appended to that index
};

// Whether a league run holds the store at `dir` now (games played with --game do not count). It
// asks for the lock a --game run takes and lets it go at once, creating nothing, so at worst a
// league starting in that instant is refused as by a --game run.
bool league_playing_into(const std::filesystem::path& dir);

// The store's index file (league.json), as messages name it, and the file of the rounds added
// to it since (league-rounds.jsonl).
std::filesystem::path index_file(const std::filesystem::path& dir);
std::filesystem::path rounds_file(const std::filesystem::path& dir);

// Reading needs no lock: every file is replaced atomically, and a round is one line, appended
// whole (a last line cut short by a crash is not read). The index is league.json with the rounds
// of its rounds file, when that file names it. Throws StoreError, also when the store has no index.
StoredIndex load_index(const std::filesystem::path& dir);

// The index, or none when the store has none yet. Throws StoreError when it cannot be read.
std::optional<StoredIndex> find_index(const std::filesystem::path& dir);

// Which of `games` the store holds: by position, each game's record, or none. A record that is
// stored but does not hold for its game (read_record()), or cannot be read, counts as none, and
// `bad` is told why: "games/KEY.json: what is wrong".
std::vector<std::optional<GameRecord>> load_stored(const std::filesystem::path& dir,
                                                   std::span<const ScheduledGame> games,
                                                   const std::function<void(const StoreError&)>& bad);

// The records of `games` that a table counts, in order: those the store holds. One that does not
// hold is left out, saying so on `log`.
std::vector<GameRecord> table_records(const std::filesystem::path& dir, std::span<const ScheduledGame> games,
                                      std::FILE* log);

}  // namespace gol::runner
