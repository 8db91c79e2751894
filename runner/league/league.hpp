// A league: every usable bot in a folder against every other, in parallel, with each finished
// game stored before it counts, and stored games reused while their key still matches.
#pragma once

#include "runner/game/play_and_record.hpp"
#include "runner/league/league_schedule.hpp"
#include "runner/league/results_store.hpp"
#include "runner/bots/bot_build.hpp"
#include "runner/sandbox/sandbox.hpp"
#include "runner/sandbox/work_area.hpp"
#include "runner/sys/process.hpp"
#include "runner/league/standings.hpp"
#include "runner/league/time_estimate.hpp"

#include <array>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <stop_token>
#include <stdexcept>
#include <string>
#include <variant>

namespace gol::runner {

// What a run tells its caller (cli/league_command.cpp wires it to the pages), so the league
// itself writes no reports.
class LeagueObserver {
public:
    virtual ~LeagueObserver() = default;
    // A game was played and stored. Called from the workers' threads, at once.
    virtual void game_stored(const ResultsStore& /*store*/, const GameRecord& /*record*/, const PlayedGame& /*game*/) {}
    // The run ended, finished or interrupted: `table` is what the store holds.
    virtual void run_finished(const ResultsStore& /*store*/, const LeagueTable& /*table*/) {}
};

// The league's games as they stand, told in every progress event, so that a display keeps no
// count of its own: stored <= total always, and stored - played of them were reused.
struct LeagueCounts {
    int total = 0;    // the league's games, those added by --until-separated among them once added
    int stored = 0;   // of them, in the store now
    int played = 0;   // of the stored, played by this run
    int running = 0;  // being played now

    bool operator==(const LeagueCounts&) const = default;
};

// The league's work in generations, for an estimate of the time left that moves within a game
// (a 10000-generation game may take hours): `done` by this run (the generations of its finished
// games and the running games' so far), `left` (the running games' rest, and every game not
// started yet at the full count).
struct LeagueWork {
    long long done = 0;
    long long left = 0;
};

// A game of the league, played and stored, as a progress display tells of it.
struct FinishedGame {
    std::array<std::string, 2> bots;  // seat 1, seat 2
    GameResult result;
    LeagueCounts counts;  // this game among the stored
    GameWhen when;        // its start and its length
};

// What a league tells whoever shows its progress (the CLI wires report/progress.hpp's). Calls
// come one at a time, the games' from the worker threads, the others from run_league's caller.
class LeagueProgress {
public:
    virtual ~LeagueProgress() = default;
    virtual void league_started(const LeagueCounts& /*counts*/) {}  // the stored games are reused
    virtual void games_added(const LeagueCounts& /*counts*/) {}     // a round of --until-separated
    virtual void game_started(const LeagueCounts& /*counts*/) {}
    virtual void game_finished(const FinishedGame& /*game*/) {}
    virtual void game_abandoned(const LeagueCounts& /*counts*/) {}  // interrupted or failed: nothing stored
    // A running game played a generation. Called often: an override only notes it.
    virtual void work_done(const LeagueWork& /*work*/) {}
    virtual void league_done() {}  // every worker has returned
};

// A game or a bot that a league run here does not have (--game, --gauntlet, --rerun): bad input,
// not a failure of the runner.
struct GameChoiceError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct LeagueOptions {
    std::filesystem::path bots_dir = "bots";
    std::filesystem::path results_dir;
    std::filesystem::path cache_dir;
    LeagueSettings settings;
    Scoring scoring = Scoring::wins;
    int jobs = 1;
    const WorkArea* area = nullptr;  // required: where the bots' scratch folders go
    Sandbox* sandbox = nullptr;  // where every bot and build runs, when set
    bool warm = true;  // false (--cold): no bot runs warm (BotHost::warm)
    Interpreters interpreters;  // bot_build.hpp
    LeagueObserver* observer = nullptr;  // told of stored games and the end, when set
    LeagueProgress* progress = nullptr;  // none: no one is told
    // run_league only (--rerun): a game's key or a bot's name, whose stored games are forgotten
    // and played again.
    std::string rerun;
    // run_league only (--until-separated): when above 0, after the schedule's games, up to this
    // many more games go to adjacent bots of the table whose order is still uncertain
    // (docs/league.md, "More games where they inform").
    int until_separated = 0;
};

struct LeagueOutcome {
    LeagueTable table;
    bool interrupted = false;
    // This run's games (a gauntlet's only, with those --until-separated added), and how many of
    // them the store held when it ended.
    int scheduled = 0;
    int stored = 0;
};

// Messages about bots and the run go to `log`. Throws StoreError when results cannot be stored,
// GameChoiceError for a gauntlet's bot or a game to re-run that the league does not have.
// Bots that share a name are excluded, all but the one that held it in this store before.
LeagueOutcome run_league(const LeagueOptions& options, ProcessRegistry& registry, std::stop_token stop,
                         std::FILE* log);

// A game of the schedule that the store does not hold yet, as `runner league --plan` lists it.
struct PlannedGame {
    std::size_t index = 0;  // in the whole schedule: the same for the same bots and settings
    std::string key;
    std::array<std::string, 2> bots;  // seat 1, seat 2
    int game = 0;                     // within its pair
};

struct LeaguePlan {
    std::size_t total = 0;  // the schedule's games
    std::size_t stored = 0;
    std::vector<PlannedGame> to_play;  // in schedule order
    TimeEstimate estimate;             // of to_play, at the options' jobs
};

// Prepares the bots and writes the index as run_league does before playing, and plays nothing:
// the games still to play, a stored record that does not hold among them (said on `log`).
// Throws StoreError when the store cannot be used.
LeaguePlan plan_league(const LeagueOptions& options, std::FILE* log);


// A game of the schedule: its index, or its key.
using GameChoice = std::variant<std::size_t, std::string>;

struct OneGameOutcome {
    PlannedGame game;
    std::size_t total = 0;  // the schedule's games
    bool played = false;    // false: it was stored already, or the run was interrupted
    bool interrupted = false;
    GameResult result;  // the stored game's, played now or before
};

// Plays the one game `which` of the schedule into the store, unless a record that holds is
// there, sharing the store with other such runs (StoreUse::one_game): it writes that game's
// files only, so the index and the leaderboard page are left to a league run. When the store
// holds a plan (league.json) its schedule must be this one, so that an index means the same
// game on every machine. Throws GameChoiceError for a game not scheduled or a schedule that is
// not the plan's, StoreError when the game cannot be played or stored.
OneGameOutcome play_league_game(const LeagueOptions& options, const GameChoice& which, ProcessRegistry& registry,
                                std::stop_token stop, std::FILE* log);

// The table of what the store at `dir` holds for its last league, without playing. A stored
// record that does not hold for its game (game_record.hpp) is left out, saying so on `log`.
// Throws StoreError when the store has no usable league.json.
LeagueTable table_from_store(const std::filesystem::path& dir, std::optional<Scoring> scoring,
                             std::FILE* log = stderr);

}  // namespace gol::runner
