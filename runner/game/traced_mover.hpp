// What `-v` shows: each board sent to a bot and each reply, one line each.
#pragma once

#include "runner/game/move.hpp"

#include <ostream>
#include <string>

namespace gol::runner {

// Passes each move to another Mover, writing to `out` a line for the board it is sent (tick,
// seat, size, live cells, bytes of JSON) and one for the reply (time, cells or forfeit).
class TracedMover : public WrappingMover {
public:
    TracedMover(Mover& inner, const std::string& name, std::ostream& out);
    MoveReport move(const Board& board, int seat, int tick) override;

private:
    std::string name_;  // escaped for a terminal
    std::ostream& out_;
    std::string json_;  // reused between moves: it only measures the board's JSON
};

}  // namespace gol::runner
