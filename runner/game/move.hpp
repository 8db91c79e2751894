// One move as the game loop sees it, whatever produced it.
#pragma once

#include "runner/game/protocol.hpp"

#include <chrono>
#include <string>
#include <vector>

namespace gol::runner {

struct MoveResult {
    bool ok = false;
    std::vector<Cell> cells;  // the bot's request, when ok
    Forfeit forfeit{ForfeitKind::not_json, {}};
    std::chrono::microseconds elapsed{0};
    std::string err;  // the bot's stderr, capped
    std::string out;  // the start of the bot's stdout, for reports on a forfeited turn
};

// Something that answers a board with a move: a real bot, or a scripted one in tests.
class Mover {
public:
    virtual ~Mover() = default;
    virtual MoveResult move(const std::string& board_json) = 0;
};

}  // namespace gol::runner
