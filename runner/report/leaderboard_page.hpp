// The league's leaderboard as one HTML page (docs/viewer.md): the standings, a pair-by-pair
// results matrix and every game with links to its viewer page, replay and log, which the page
// expects in viewers/, replays/ and logs/ beside it (the results store's layout). Sized for a
// field of 20 bots on a laptop's screen: wide tables scroll inside their own boxes, and the games
// list filters by bot and sorts by any column with a small script of its own.
#pragma once

#include "runner/league/standings.hpp"

#include <chrono>
#include <string>

namespace gol::runner {

// What the page's heading says besides the settings.
struct LeaderboardHeading {
    std::string name;  // the tournament's
    std::chrono::system_clock::time_point written;
};

std::string leaderboard_page(const LeagueTable& table, const LeaderboardHeading& heading);

// For a page made outside a store's run (`runner table --format html`): named "League", written now.
std::string leaderboard_page(const LeagueTable& table);

}  // namespace gol::runner
