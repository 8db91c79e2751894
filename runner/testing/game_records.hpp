// Stored games as the standings' and the tables' tests need them: who played, who won, the
// final cells and the forfeits.
#pragma once

#include "runner/league/game_record.hpp"

#include <cstdint>
#include <string>

namespace gol::runner::testing {

// `winner`: 0 for a draw, else the winning seat.
inline GameRecord game(const std::string& a, const std::string& b, int winner, std::int64_t ca = 10,
                       std::int64_t cb = 5, int fa = 0, int fb = 0) {
    GameRecord r;
    r.bots = {a, b};
    r.result.verdict.winner_seat = winner;
    r.result.cells = {ca, cb};
    r.result.forfeits = {fa, fb};
    return r;
}

}  // namespace gol::runner::testing
