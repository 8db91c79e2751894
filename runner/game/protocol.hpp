// The 2016 wire format: the board as one compact JSON object, the reply as a list of [y, x].
#pragma once

#include "runner/game/move.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gol::runner {

// Encodes `board` for `bot_id` at `tick_id` into `out` (replacing its contents; reusing `out`
// between calls saves allocations):
// {"y_size":H,"x_size":W,"board":{"(y,x)":id,...},"bot_id":B,"tick_id":T}
void encode_board(const Board& board, int bot_id, std::int64_t tick_id, std::string& out);

// Validates a bot's stdout: JSON (whitespace allowed), a list of at most 30 pairs of integers,
// and no NUL byte anywhere. The cells are the bot's request, or the move is a forfeit.
Move parse_reply(std::string_view text);

}  // namespace gol::runner
