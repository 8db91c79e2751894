// The 2016 wire format: the board as one compact JSON object, the reply as a list of [y, x].
#pragma once

#include "runner/game/move.hpp"

#include <cstdint>
#include <string>
#include <string_view>

namespace gol::runner {

// Encodes `board` for `bot_id` at `tick_id` into `out` (replacing its contents; reusing `out`
// between calls saves allocations):
// {"y_size":H,"x_size":W,"board":{"(y,x)":id,...},"bot_id":B,"tick_id":T}
void encode_board(const Board& board, int bot_id, std::int64_t tick_id, std::string& out);

// A board as a bot received it, read back from its JSON.
struct SentBoard {
    Board board;
    int bot_id = 1;
    std::int64_t tick_id = 0;
};

// Reads the JSON encode_board writes (any whitespace, any key order): sizes 1..Board::max_side,
// each live cell once as "(y,x)" on the board with owner 1 or 2, bot_id 1 or 2, tick_id from 0.
// Throws RecordError (json_fields.hpp) naming what is wrong.
SentBoard decode_board(std::string_view json);

// Validates a bot's stdout: JSON (whitespace allowed), a list of at most 30 pairs of integers,
// and no NUL byte anywhere. The cells are the bot's request, or the move is a forfeit.
Move parse_reply(std::string_view text);

}  // namespace gol::runner
