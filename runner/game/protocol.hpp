// The 2016 wire format: the board as one compact JSON object, the reply as a list of [y, x].
#pragma once

#include "engine/board.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gol::runner {

inline constexpr std::size_t max_cells_per_move = 30;

// Why a turn was forfeited. The names are stable: they appear in replays and reports.
enum class ForfeitKind {
    timeout,
    signal,
    exit_status,
    output_cap,
    not_json,
    not_pairs,
    non_integer,
    too_many_cells,
    could_not_start,
    board_too_large,
    protocol,  // a persistent bot broke its line protocol, or a reply held a NUL byte
    gave_up,   // a persistent bot restarted too often and sits out the rest of the game
    resource_limit,  // CPU time, memory or file size limit
};

std::string_view name(ForfeitKind kind);
bool forfeit_kind_from_name(std::string_view text, ForfeitKind& kind);

struct Forfeit {
    ForfeitKind kind;
    std::string detail;  // human-readable, e.g. "exit status 3" or "31 cells, at most 30"
};

// Encodes `board` for `bot_id` at `tick_id` into `out` (replacing its contents; reusing `out`
// between calls saves allocations):
// {"y_size":H,"x_size":W,"board":{"(y,x)":id,...},"bot_id":B,"tick_id":T}
void encode_board(const Board& board, int bot_id, std::int64_t tick_id, std::string& out);

struct ParsedReply {
    bool ok = false;
    std::vector<Cell> cells;  // when ok; coordinates that fit no int are stored as -1 (off board)
    Forfeit forfeit{ForfeitKind::not_json, {}};  // when !ok
};

// Validates a bot's stdout: JSON (whitespace allowed), a list of at most 30 pairs of integers,
// and no NUL byte anywhere.
ParsedReply parse_reply(std::string_view text);

}  // namespace gol::runner
