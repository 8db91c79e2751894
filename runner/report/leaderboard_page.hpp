// The league's leaderboard as one HTML page (docs/viewer.md): the standings, a pair-by-pair
// results matrix and every game with links to its viewer page, replay and log, which the page
// expects in viewers/, replays/ and logs/ beside it (the results store's layout). Sized for a
// field of 20 bots on a laptop's screen: wide tables scroll inside their own boxes, and the games
// list filters by bot and sorts by any column with a small script of its own.
#pragma once

#include "runner/league/standings.hpp"

#include <chrono>
#include <filesystem>
#include <string>

namespace gol::runner {

// What the page's heading says besides the settings.
struct LeaderboardHeading {
    std::string name;  // the tournament's
    std::chrono::system_clock::time_point written;
};

std::string leaderboard_page(const LeagueTable& table, const LeaderboardHeading& heading);

// The heading of a results store's page, written now: named after the store's folder
// (tournaments/NAME.json keeps its results in tournaments/NAME/).
LeaderboardHeading store_heading(const std::filesystem::path& results_dir);

}  // namespace gol::runner
