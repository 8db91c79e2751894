// The lines a league ends with on stderr about its bots' time: which bots timed out, which came
// near the limit, and which forfeited every move, so that a host sees trouble without reading the
// table's columns.
#pragma once

#include "runner/league/standings.hpp"

#include <string>

namespace gol::runner {

// One line per bot in trouble, each starting "league: ", then a line of advice when any timed
// out; empty when no bot is.
std::string timing_summary(const LeagueTable& table);

}  // namespace gol::runner
