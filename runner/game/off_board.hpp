// Replies whose cells lie mostly off the board: valid, so no forfeit, but a bot that counts
// from 1 or writes [x, y] places almost nothing and never learns why (docs/protocol.md).
#pragma once

#include "runner/game/move.hpp"

#include <optional>
#include <string>
#include <vector>

namespace gol::runner {

// A reply most of whose cells are off the board, and what would have put them all on it.
struct OffBoard {
    enum class Cause { unknown, one_based, swapped, one_based_swapped };
    int off = 0;    // cells off the board
    int total = 0;  // cells the reply asked for
    Cause cause = Cause::unknown;
    bool mostly() const { return off * 2 > total; }
};

// When any of `cells` lies off a `height` x `width` board: how many, and the first of these that
// puts every cell on the board: counted from 1, y and x swapped, or both.
std::optional<OffBoard> off_board(const std::vector<Cell>& cells, int height, int width);

// off_board() when more than half of `cells` lie off the board: a warning (a partly off-board
// move is only a note, in check).
std::optional<OffBoard> mostly_off_board(const std::vector<Cell>& cells, int height, int width);

// "5 of 6 cells off the 20x30 board (y 0..19, x 0..29): are its coordinates counted from 1?"; a
// move with at most half of its cells off, and no likely cause, is told nothing is placed there.
std::string off_board_text(const OffBoard& off, int height, int width);

// Passes each move to another Mover and counts the replies whose cells lie mostly off the board,
// before the game places them (what is placed is all a game's observers see).
class OffBoardWatch : public WrappingMover {
public:
    explicit OffBoardWatch(Mover& inner) : WrappingMover(inner) {}
    MoveReport move(const Board& board, int seat, int tick) override;

    int moves() const { return moves_; }  // replies with most of their cells off the board
    int first_tick() const { return first_tick_; }
    const std::optional<OffBoard>& first() const { return first_; }

private:
    int moves_ = 0;
    int first_tick_ = 0;
    std::optional<OffBoard> first_;
};

}  // namespace gol::runner
