// A league: every usable bot in a folder against every other, in parallel, with each finished
// game stored before it counts, and stored games reused while their key still matches.
#pragma once

#include "runner/league/league_schedule.hpp"
#include "runner/sys/sandbox.hpp"
#include "runner/sys/work_area.hpp"
#include "runner/sys/process.hpp"
#include "runner/league/standings.hpp"

#include <cstdio>
#include <filesystem>
#include <optional>
#include <stop_token>

namespace gol::runner {

struct LeagueOptions {
    std::filesystem::path bots_dir = "bots";
    std::filesystem::path results_dir;
    std::filesystem::path cache_dir;
    LeagueSettings settings;
    Scoring scoring = Scoring::wins;
    int jobs = 1;
    const WorkArea* area = nullptr;  // required: where the bots' scratch folders go
    Sandbox* sandbox = nullptr;  // where every bot and build runs, when set
    std::FILE* progress = nullptr;  // a terminal for the live progress line, or none
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
