// A Mover that answers every board with the same move, for tests of what wraps a mover.
#pragma once

#include "runner/game/move.hpp"

namespace gol::runner::testing {

struct FixedMover : Mover {
    MoveReport reply;
    MoveReport move(const Board&, int, int) override { return reply; }
};

}  // namespace gol::runner::testing
