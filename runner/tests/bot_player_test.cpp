#include "runner/bot_player.hpp"

#include <doctest/doctest.h>

#include <random>

using namespace gol;
using namespace gol::runner;

namespace {

PreparedBot shell_bot(const std::string& script, Protocol protocol) {
    PreparedBot bot;
    bot.spec.name = "sh";
    bot.spec.dir = "/tmp";
    bot.spec.protocol = protocol;
    bot.command = {"/bin/sh", "-c", script, "bot"};
    return bot;
}

// A 1000x1000 board whose JSON is well over Linux's 128 KiB limit for one argument.
std::string big_board_json() {
    Board board(1000, 1000);
    std::vector<Cell> cells;
    std::mt19937 rng(1);
    for (int i = 0; i < 20000; ++i) cells.push_back({static_cast<int>(rng() % 1000), static_cast<int>(rng() % 1000)});
    board.place(Player::one, cells);
    std::vector<LiveCell> scratch;
    std::string json;
    encode_board(board, 2, 7, scratch, json);
    return json;
}

}  // namespace

TEST_CASE("bot player: the argv protocol passes the board as the last argument") {
    BotPlayer p(shell_bot("case \"$1\" in *'\"bot_id\":2'*) echo '[[1,1]]';; *) echo '[]';; esac", Protocol::argv), {});
    MoveResult m = p.move(R"({"y_size":3,"x_size":3,"board":{},"bot_id":2,"tick_id":0})");
    REQUIRE(m.ok);
    CHECK(m.cells == std::vector<Cell>{{1, 1}});
}

TEST_CASE("bot player: a board too large for one argument forfeits plainly; stdin carries it") {
    const std::string json = big_board_json();
    REQUIRE(json.size() > max_argument_bytes);
    BotPlayer argv_bot(shell_bot("echo '[]'", Protocol::argv), {});
    MoveResult m = argv_bot.move(json);
    CHECK_FALSE(m.ok);
    CHECK(m.forfeit.kind == ForfeitKind::board_too_large);
    CHECK(m.forfeit.detail.find("128 KiB") != std::string::npos);

    // The bot answers with the byte count it read, as a cell, to show it got everything.
    BotPlayer stdin_bot(shell_bot("n=$(wc -c); echo \"[[0,$n]]\"", Protocol::stdin), {});
    MoveResult s = stdin_bot.move(json);
    REQUIRE(s.ok);
    CHECK(s.cells[0].x == static_cast<int>(json.size() + 1));
}

TEST_CASE("bot player: bots see only an allow-listed environment with a scratch directory") {
    BotPlayer p(shell_bot("test -d \"$GOL_SCRATCH\" && test \"$HOME\" = \"$GOL_SCRATCH\" && test -z \"$USER$SHELL\" "
                          "&& echo '[]'",
                          Protocol::argv),
                {});
    CHECK(p.move("{}").ok);
}
