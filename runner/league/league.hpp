// A league: every usable bot in a folder against every other, in parallel, with each finished
// game stored before it counts, and stored games reused while their key still matches.
#pragma once

#include "runner/game/play_and_record.hpp"
#include "runner/league/league_schedule.hpp"
#include "runner/league/results_store.hpp"
#include "runner/sys/sandbox.hpp"
#include "runner/sys/work_area.hpp"
#include "runner/sys/process.hpp"
#include "runner/league/standings.hpp"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <stop_token>

namespace gol::runner {

// How far a run is: games stored (before it and by it), of all it schedules.
struct LeagueProgress {
    int done = 0;
    int total = 0;
    int running = 0;
    std::chrono::seconds elapsed{0};
    std::optional<std::chrono::seconds> left;  // an estimate, once a game has been played
};

// What a run tells its caller (cli/league_command.cpp wires it to the pages and the progress
// display), so the league itself writes no reports.
class LeagueObserver {
public:
    virtual ~LeagueObserver() = default;
    // A game was played and stored. Called from the workers' threads, at once.
    virtual void game_stored(const ResultsStore& /*store*/, const GameRecord& /*record*/, const PlayedGame& /*game*/) {}
    // Once a second and on change while games are played, from one thread; then once with
    // `over` when every worker has returned, before anything else is logged.
    virtual void progress(const LeagueProgress& /*now*/, bool /*over*/) {}
    // The run ended, finished or interrupted: `table` is what the store holds.
    virtual void run_finished(const ResultsStore& /*store*/, const LeagueTable& /*table*/) {}
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
    LeagueObserver* observer = nullptr;  // told of stored games, progress and the end, when set
};

struct LeagueOutcome {
    LeagueTable table;
    bool interrupted = false;
    int stored = 0;  // games in the store for this league when the run ended
};

// Messages about bots and the run go to `log`. Throws StoreError when results cannot be stored.
// Bots that share a name are excluded, all but the one that held it in this store before.
LeagueOutcome run_league(const LeagueOptions& options, ProcessRegistry& registry, std::stop_token stop,
                         std::FILE* log);

// The table of what the store at `dir` holds for its last league, without playing. A stored
// record that does not hold for its game (game_record.hpp) is left out, saying so on `log`.
// Throws StoreError when the store has no usable league.json.
LeagueTable table_from_store(const std::filesystem::path& dir, std::optional<Scoring> scoring,
                             std::FILE* log = stderr);

}  // namespace gol::runner
