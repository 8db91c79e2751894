// Replies whose cells lie mostly off the board: when they count, and the likely cause named.
#include "runner/game/off_board.hpp"

#include "runner/testing/fixed_mover.hpp"

#include <doctest/doctest.h>

using namespace gol;
using namespace gol::runner;

using Fixed = testing::FixedMover;

TEST_CASE("off board: only a reply with more than half of its cells off the board counts") {
    // A 10-row, 20-column board: y 0..9, x 0..19.
    CHECK_FALSE(mostly_off_board({}, 10, 20));
    CHECK_FALSE(mostly_off_board({{0, 0}, {9, 19}}, 10, 20));
    CHECK_FALSE(mostly_off_board({{0, 0}, {10, 0}}, 10, 20));  // half is not most
    const auto off = mostly_off_board({{0, 0}, {10, 0}, {0, 20}}, 10, 20);
    REQUIRE(off);
    CHECK(off->off == 2);
    CHECK(off->total == 3);
}

TEST_CASE("off board: any cell off the board is found, and a move with at most half of them off is not mostly off") {
    CHECK_FALSE(off_board({{0, 0}, {9, 19}}, 10, 20));
    const auto partly = off_board({{0, 0}, {1, 1}, {10, 0}, {0, 20}}, 10, 20);
    REQUIRE(partly);
    CHECK(partly->off == 2);
    CHECK(partly->total == 4);
    CHECK_FALSE(partly->mostly());
    CHECK(off_board_text(*partly, 10, 20) ==
          "2 of 4 cells off the 20x10 board (a cell is [y, x], y 0..9, x 0..19): nothing is placed there");
    CHECK(off_board({{10, 0}, {0, 20}, {1, 1}}, 10, 20)->mostly());
}

TEST_CASE("off board: the likely cause is the first fix that puts every cell on the board") {
    using Cause = OffBoard::Cause;
    // Counted from 1: the last row and column are 10 and 20.
    CHECK(mostly_off_board({{10, 20}, {10, 1}, {1, 20}}, 10, 20)->cause == Cause::one_based);
    // [x, y]: x up to 19 written where y (up to 9) belongs.
    CHECK(mostly_off_board({{15, 3}, {19, 9}}, 10, 20)->cause == Cause::swapped);
    // Both: [x, y] counted from 1.
    CHECK(mostly_off_board({{20, 10}, {20, 1}}, 10, 20)->cause == Cause::one_based_swapped);
    // Nothing explains a negative coordinate, or cells far away.
    CHECK(mostly_off_board({{-1, 3}, {5, 500}}, 10, 20)->cause == Cause::unknown);
}

TEST_CASE("off board: the text gives the count, the board's ranges and the likely cause") {
    CHECK(off_board_text({5, 6, OffBoard::Cause::one_based}, 10, 20) ==
          "5 of 6 cells off the 20x10 board (a cell is [y, x], y 0..9, x 0..19): likely its coordinates count from "
          "1; less 1 each, they are all on the board");
    CHECK(off_board_text({2, 2, OffBoard::Cause::unknown}, 10, 20).ends_with(
        ": are its coordinates counted from 1, or y and x swapped?"));
    CHECK(off_board_text({2, 2, OffBoard::Cause::one_based_swapped}, 10, 20).find("count from 1 and it writes [x, y]") !=
          std::string::npos);
}

TEST_CASE("off board watch: counts the moves whose cells lie mostly off the board, and keeps the first") {
    Fixed inner;
    OffBoardWatch watch(inner);
    Board board(10, 20);
    inner.reply.cells = {{1, 1}};
    CHECK(watch.move(board, 1, 0).cells == inner.reply.cells);
    CHECK(watch.moves() == 0);
    inner.reply.cells = {{10, 20}, {10, 1}};
    watch.move(board, 1, 1);
    inner.reply.cells = {{-1, 0}};
    watch.move(board, 1, 2);
    inner.reply.forfeit = Forfeit{ForfeitKind::not_json, "x"};  // a forfeit places nothing and is not counted
    watch.move(board, 1, 3);
    CHECK(watch.moves() == 2);
    CHECK(watch.first_tick() == 1);
    REQUIRE(watch.first());
    CHECK(watch.first()->cause == OffBoard::Cause::one_based);
}
