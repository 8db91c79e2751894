// The league's results on disk: one durable record per finished game, with its replay and log,
// and an index of the league's current schedule. A record exists only once its game is over.
#pragma once

#include "runner/league/game_record.hpp"
#include "runner/league/league_schedule.hpp"
#include "runner/sys/unique_fd.hpp"

#include <filesystem>
#include <optional>
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

// What `runner table` needs to rebuild the table without the bots: the league's bots with their
// content hashes, scheduled game keys, exclusions and settings, as of the last league run.
struct LeagueIndex {
    LeagueSettings settings;
    std::string scoring = "wins";
    std::vector<ScheduledBot> bots;
    std::vector<std::string> keys;  // the schedule's, then the added games' (schedule_added)
    std::vector<AddedPair> added;   // --until-separated: the pairs given two more games, in order
    std::vector<ExcludedBot> excluded;
    // The folder or file of each bot that has played under a name in this store, kept across
    // runs: when a newcomer takes a name, the bot that had it keeps it (docs/league.md).
    std::map<std::string, std::string> paths;
};

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
    std::optional<GameRecord> load(const ScheduledGame& game) const;
    // Replay and log first, the record last: a record never points at a missing replay.
    void save(const GameRecord& record, const std::string& replay, const std::string& log);
    void save_index(const LeagueIndex& index);
    // Removes what the store holds of the game `key`, its record first (a replay without a
    // record is not counted), and returns the files removed. Throws StoreError.
    std::vector<std::filesystem::path> forget(const std::string& key);

    std::filesystem::path replay_path(const std::string& key) const;
    // Where the game's viewer page goes (docs/viewer.md): made from its replay, so it can be
    // made again.
    std::filesystem::path viewer_path(const std::string& key) const;

private:
    std::filesystem::path record_path(const std::string& key) const;
    std::filesystem::path log_path(const std::string& key) const;

    std::filesystem::path dir_;
    UniqueFd lock_;
};

// Whether a league run holds the store at `dir` now (games played with --game do not count). It
// asks for the lock a --game run takes and lets it go at once, creating nothing, so at worst a
// league starting in that instant is refused as by a --game run.
bool league_playing_into(const std::filesystem::path& dir);

// Reading needs no lock: every file is replaced atomically. Throws StoreError.
LeagueIndex load_index(const std::filesystem::path& dir);

// The record stored for `game`, or none. Throws StoreError "games/KEY.json: what is wrong" when
// one is stored but does not hold for the game (read_record()), or cannot be read; such a record
// is not to be counted.
std::optional<GameRecord> load_record(const std::filesystem::path& dir, const ScheduledGame& game);

}  // namespace gol::runner
