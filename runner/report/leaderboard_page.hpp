// The league's leaderboard as one HTML page (docs/viewer.md): the standings, a pair-by-pair
// results matrix and every game with links to its viewer page, replay and log, which the page
// expects in viewers/, replays/ and logs/ beside it (the results store's layout). Sized for a
// field of 20 bots on a laptop's screen: wide tables scroll inside their own boxes, and the games
// list filters by bot and sorts by any column with a small script of its own.
#pragma once

#include "runner/league/standings.hpp"

#include <string>

namespace gol::runner {

std::string leaderboard_page(const LeagueTable& table);

}  // namespace gol::runner
