// A stored game for tests that fill a results store without playing.
#pragma once

#include "runner/league/game_record.hpp"

namespace gol::runner::testing {

// The record a league stores for `game` when it ends in a draw at its last generation.
inline GameRecord drawn_record(const ScheduledGame& game) {
    GameRecord r{game.inputs, game.key, {}, {}, {}, {}, {}};
    r.result.verdict = {0, EndReason::generations};
    r.result.generations = game.inputs.generations;
    r.result.cells = {4, 4};
    return r;
}

}  // namespace gol::runner::testing
