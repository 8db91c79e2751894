// Stored games for tests and benchmarks that fill a results store without playing.
#pragma once

#include "runner/league/game_record.hpp"

#include <cstdint>

namespace gol::runner::testing {

// The record a league stores for `game` when it ends in a draw at its last generation.
inline GameRecord drawn_record(const ScheduledGame& game) {
    GameRecord r{game.inputs, game.key, {}, {}, {}, {}, {}, {}};
    r.result.verdict = {0, EndReason::generations};
    r.result.generations = game.inputs.generations;
    r.result.cells = {4, 4};
    return r;
}

// The same game ended at its last generation with `cells1` and `cells2` live cells (at least
// 1 each): the larger side won, or a draw when they are equal.
inline GameRecord decided_record(const ScheduledGame& game, std::int64_t cells1, std::int64_t cells2) {
    GameRecord r = drawn_record(game);
    r.result.cells = {cells1, cells2};
    r.result.verdict.winner_seat = cells1 > cells2 ? 1 : cells2 > cells1 ? 2 : 0;
    return r;
}

}  // namespace gol::runner::testing
