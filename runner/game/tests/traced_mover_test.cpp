// -v's trace: a line for each board sent and each reply, the bot's words escaped.
#include "runner/game/traced_mover.hpp"

#include "runner/testing/fixed_mover.hpp"

#include <doctest/doctest.h>

#include <sstream>

using namespace gol;
using namespace gol::runner;

using Fixed = testing::FixedMover;

TEST_CASE("traced mover: the board's size, cells and JSON bytes, then the reply's time and cells") {
    Board board(3, 5);
    std::vector<Cell> cells = {{0, 1}, {2, 4}};
    board.place(Player::one, cells);
    Fixed inner;
    inner.reply.cells = {{1, 2}, {0, 3}};
    inner.reply.elapsed = std::chrono::microseconds(12'345);
    std::ostringstream out;
    TracedMover traced(inner, "blocky", out);
    const MoveReport m = traced.move(board, 2, 7);
    CHECK(m.cells == inner.reply.cells);
    // {"y_size":3,"x_size":5,"board":{"(0,1)":1,"(2,4)":1},"bot_id":2,"tick_id":7}
    CHECK(out.str() ==
          "tick 7 seat 2 (blocky): board 5x3, 2 live cells, 76 bytes of JSON\n"
          "tick 7 seat 2 (blocky): reply in 12.3 ms: 2 cells [[1,2], [0,3]]\n");
}

TEST_CASE("traced mover: a forfeit's reason and detail, control characters escaped") {
    Fixed inner;
    inner.reply.forfeit = Forfeit{ForfeitKind::not_json, "it starts with \"\x1b[2J\""};
    std::ostringstream out;
    TracedMover traced(inner, "bad\nname", out);
    traced.move(Board(2, 2), 1, 0);
    CHECK(out.str() ==
          "tick 0 seat 1 (bad\\x0aname): board 2x2, 0 live cells, 57 bytes of JSON\n"
          "tick 0 seat 1 (bad\\x0aname): reply in 0.0 ms: forfeit not_json: it starts with \"\\x1b[2J\"\n");
}
