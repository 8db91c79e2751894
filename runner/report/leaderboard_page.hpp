// The league's leaderboard as one HTML page (docs/league.md): the standings, a pair-by-pair
// results matrix and every game with links to its viewer page, replay and log, which the page
// expects in viewers/, replays/ and logs/ beside it (the results store's layout).
#pragma once

#include "runner/league/standings.hpp"

#include <string>

namespace gol::runner {

std::string leaderboard_page(const LeagueTable& table);

}  // namespace gol::runner
