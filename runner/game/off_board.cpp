#include "runner/game/off_board.hpp"

#include <algorithm>

namespace gol::runner {

namespace {

bool on_board(int y, int x, int height, int width) { return y >= 0 && y < height && x >= 0 && x < width; }

// Whether every cell is on the board once `fix` has undone the mistake.
template <typename Fix>
bool all_on_board(const std::vector<Cell>& cells, int height, int width, Fix fix) {
    return std::all_of(cells.begin(), cells.end(), [&](const Cell& c) {
        const Cell fixed = fix(c);
        return on_board(fixed.y, fixed.x, height, width);
    });
}

}  // namespace

std::optional<OffBoard> mostly_off_board(const std::vector<Cell>& cells, int height, int width) {
    std::optional<OffBoard> off = off_board(cells, height, width);
    if (off && !off->mostly()) return std::nullopt;
    return off;
}

std::optional<OffBoard> off_board(const std::vector<Cell>& cells, int height, int width) {
    const auto off = std::count_if(cells.begin(), cells.end(),
                                   [&](const Cell& c) { return !on_board(c.y, c.x, height, width); });
    if (off == 0) return std::nullopt;
    OffBoard result{static_cast<int>(off), static_cast<int>(cells.size()), OffBoard::Cause::unknown};
    // A coordinate of -1 (negative, or too large for an int) is fixed by none of these.
    using Cause = OffBoard::Cause;
    if (all_on_board(cells, height, width, [](Cell c) { return Cell{c.y - 1, c.x - 1}; }))
        result.cause = Cause::one_based;
    else if (all_on_board(cells, height, width, [](Cell c) { return Cell{c.x, c.y}; }))
        result.cause = Cause::swapped;
    else if (all_on_board(cells, height, width, [](Cell c) { return Cell{c.x - 1, c.y - 1}; }))
        result.cause = Cause::one_based_swapped;
    return result;
}

std::string off_board_text(const OffBoard& off, int height, int width) {
    std::string text = std::to_string(off.off) + " of " + std::to_string(off.total) + " cells off the " +
                       std::to_string(width) + "x" + std::to_string(height) + " board (a cell is [y, x], y 0.." +
                       std::to_string(height - 1) + ", x 0.." + std::to_string(width - 1) + ")";
    switch (off.cause) {
        case OffBoard::Cause::one_based:
            return text + ": likely its coordinates count from 1; less 1 each, they are all on the board";
        case OffBoard::Cause::swapped:
            return text + ": likely it writes [x, y]; swapped, they are all on the board";
        case OffBoard::Cause::one_based_swapped:
            return text + ": likely its coordinates count from 1 and it writes [x, y]; swapped and less 1 each, "
                          "they are all on the board";
        case OffBoard::Cause::unknown: break;
    }
    // A few cells off the board may be meant (a pattern cut by the edge); most of them rarely are.
    return text + (off.mostly() ? ": are its coordinates counted from 1, or y and x swapped?" : ": nothing is placed there");
}

MoveReport OffBoardWatch::move(const Board& board, int seat, int tick) {
    MoveReport m = inner_.move(board, seat, tick);
    if (m.ok())
        if (std::optional<OffBoard> off = mostly_off_board(m.cells, board.height(), board.width())) {
            if (moves_++ == 0) {
                first_ = off;
                first_tick_ = tick;
            }
        }
    return m;
}

}  // namespace gol::runner
