#include "engine/bench/work_count.hpp"

#include <doctest/doctest.h>

#include <initializer_list>
#include <vector>

using namespace gol;

namespace {

bench::WorkCount run(int height, int width, std::initializer_list<Cell> cells, int steps) {
    Board board(height, width);
    board.place(Player::one, std::vector<Cell>(cells));
    bench::WorkCount count(height, width);
    for (int s = 0; s < steps; ++s) {
        count.before_step(board);
        board.step();
    }
    return count;
}

}  // namespace

TEST_CASE("work count: a blinker costs its first two steps, then nothing") {
    const bench::WorkCount count = run(20, 100, {{5, 10}, {5, 11}, {5, 12}}, 10);
    // Against the empty board before it: 3 horizontal cells (rows 4..6), then 3 vertical (rows 3..7).
    CHECK(count.changed_cells() == 6);
    CHECK(count.units() == 3 + 5);
}

TEST_CASE("work count: a change beside a word boundary counts the words on both sides") {
    // A blinker in the last column of word 0.
    const bench::WorkCount count = run(20, 200, {{4, 63}, {5, 63}, {6, 63}}, 6);
    CHECK(count.changed_cells() == 6);
    // Vertical: rows 3..7 of words 0 and 1; then horizontal over x = 62..64: rows 4..6 of both.
    CHECK(count.units() == 10 + 6);
}

TEST_CASE("work count: a glider never stops costing") {
    Board board(200, 200);
    const Cell glider[] = {{0, 1}, {1, 2}, {2, 0}, {2, 1}, {2, 2}};
    board.place(Player::one, glider);
    bench::WorkCount count(board.height(), board.width());
    for (int s = 0; s < 40; ++s) {
        const std::int64_t before = count.changed_cells();
        count.before_step(board);
        board.step();
        CHECK(count.changed_cells() > before);
    }
}

TEST_CASE("work count: units of any shape") {
    Board board(40, 40);
    const Cell block[] = {{7, 7}, {7, 8}, {8, 7}, {8, 8}};  // rows and columns 6..9 are its neighbourhood
    board.place(Player::one, block);
    bench::WorkCount bricks(board.height(), board.width(), 8, 8);
    bench::WorkCount words(board.height(), board.width());
    for (int s = 0; s < 4; ++s) {
        bricks.before_step(board);
        words.before_step(board);
        board.step();
    }
    CHECK(bricks.units() == 2 * 4);  // the 8x8 bricks at (0, 0), (0, 8), (8, 0), (8, 8), twice
    CHECK(words.units() == 2 * 4);   // rows 6..9 of word 0, twice
    CHECK(bricks.changed_cells() == 8);
}
