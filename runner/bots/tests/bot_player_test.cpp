#include "runner/bots/bot_player.hpp"
#include "runner/sandbox/long_argument.hpp"
#include "runner/game/protocol.hpp"
#include "runner/testing/runner_fixture.hpp"

#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <random>

using namespace gol;
using namespace gol::runner;

namespace {

PreparedBot shell_bot(const std::string& script, Protocol protocol) {
    PreparedBot bot;
    bot.spec.name = "sh";
    bot.spec.dir = "/tmp";
    bot.dir = bot.spec.dir;
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
    std::string json;
    encode_board(board, 2, 7, json);
    return json;
}

}  // namespace

TEST_CASE("bot player: a board from the game loop reaches the bot encoded, with its seat and tick") {
    const WorkArea area;
    BotPlayer p(shell_bot("case \"$1\" in *'\"board\":{\"(0,1)\":1},\"bot_id\":2,\"tick_id\":5}'*) echo '[[1,1]]';; "
                          "*) echo '[]';; esac",
                          Protocol::argv),
                {}, {area});
    Board board(3, 3);
    board.place(Player::one, std::vector<Cell>{{0, 1}});
    MoveReport m = p.move(board, 2, 5);
    REQUIRE(m.ok());
    CHECK(m.cells == std::vector<Cell>{{1, 1}});
}

TEST_CASE("bot player: the argv protocol passes the board as the last argument") {
    const WorkArea area;  // the players' scratch folders
    BotPlayer p(shell_bot("case \"$1\" in *'\"bot_id\":2'*) echo '[[1,1]]';; *) echo '[]';; esac", Protocol::argv), {}, {area});
    MoveReport m = p.move(R"({"y_size":3,"x_size":3,"board":{},"bot_id":2,"tick_id":0})");
    REQUIRE(m.ok());
    CHECK(m.cells == std::vector<Cell>{{1, 1}});
}

TEST_CASE("bot player: a board over Linux's argument limit arrives whole, as argv and as stdin") {
    const WorkArea area;  // the players' scratch folders
    const std::string json = big_board_json();
    REQUIRE(too_long_for_argv(json));
    // Each bot answers with the byte count it read, as a cell, to show it got everything.
    BotPlayer argv_bot(shell_bot("n=$(printf %s \"$1\" | wc -c); echo \"[[0,$n]]\"", Protocol::argv), {}, {area});
    MoveReport a = argv_bot.move(json);
    INFO(a.forfeit->detail);
    REQUIRE(a.ok());
    CHECK(a.cells[0].x == static_cast<int>(json.size()));

    BotPlayer stdin_bot(shell_bot("n=$(wc -c); echo \"[[0,$n]]\"", Protocol::stdin), {}, {area});
    MoveReport s = stdin_bot.move(json);
    REQUIRE(s.ok());
    CHECK(s.cells[0].x == static_cast<int>(json.size() + 1));
}

TEST_CASE("bot player: a long board leaves no trace of its delivery in the bot's process") {
    const WorkArea area;  // the players' scratch folders
    const std::string json = big_board_json();
    // No preload variables, no extra descriptor, and the board is the last of two arguments.
    BotPlayer p(shell_bot("test -z \"$LD_PRELOAD$GOL_LONG_ARGUMENTS\" && ! test -e /proc/self/fd/3 && test $# = 1 && "
                          "echo '[[0,1]]'",
                          Protocol::argv),
                {}, {area});
    MoveReport m = p.move(json);
    INFO(m.forfeit->detail);
    REQUIRE(m.ok());
    CHECK(m.cells == std::vector<Cell>{{0, 1}});
}

TEST_CASE("bot player: a long board passes on through exec to the program a bot starts") {
    const WorkArea area;  // the players' scratch folders
    const std::string json = big_board_json();
    BotPlayer p(shell_bot("exec /bin/sh -c 'n=$(printf %s \"$1\" | wc -c); echo \"[[1,$n]]\"' relay \"$1\"",
                          Protocol::argv),
                {}, {area});
    MoveReport m = p.move(json);
    INFO(m.forfeit->detail);
    REQUIRE(m.ok());
    CHECK(m.cells == std::vector<Cell>{{1, static_cast<int>(json.size())}});
}

TEST_CASE("bot player: bots see only an allow-listed environment with a scratch directory") {
    const WorkArea area;  // the players' scratch folders
    BotPlayer p(shell_bot("test -d \"$GOL_SCRATCH\" && test \"$HOME\" = \"$GOL_SCRATCH\" && test -z \"$USER$SHELL\" "
                          "&& echo '[]'",
                          Protocol::argv),
                {}, {area});
    CHECK(p.move("{}").ok());
}

namespace {

// The last argument, which the scripts ignore, is this test program's pid: `running` looks for
// this test's own process, not one of another build's suite running the same script at once.
PreparedBot persistent_bot(const std::string& script, const std::string& arg) {
    PreparedBot bot;
    bot.spec.name = "persistent";
    bot.spec.dir = TEST_BOTS_DIR;
    bot.dir = bot.spec.dir;
    bot.spec.protocol = Protocol::persistent;
    bot.command = {"/usr/bin/python3", std::string(TEST_BOTS_DIR) + "/" + script, arg, std::to_string(::getpid())};
    return bot;
}

// Whether this test's own persistent bot (script and mode, as persistent_bot starts it) runs.
bool running(const std::string& script, const std::string& arg) {
    return gol::runner::testing::process_with(std::string(TEST_BOTS_DIR) + "/" + script + '\0' + arg + '\0' +
                                              std::to_string(::getpid()) + '\0');
}

const std::string kBoard = R"({"y_size":3,"x_size":3,"board":{},"bot_id":1,"tick_id":0})";

}  // namespace

TEST_CASE("persistent: one process answers every tick") {
    const WorkArea area;  // the players' scratch folders
    PreparedBot bot = persistent_bot("persist_py/main.py", "");
    BotPlayer p(bot, {}, {area});
    MoveReport first = p.move(kBoard);
    REQUIRE(first.ok());
    CHECK(first.cells.size() == 4);
    for (int i = 0; i < 20; ++i) {
        MoveReport m = p.move(kBoard);
        REQUIRE(m.ok());
        CHECK(m.cells.empty());  // a restarted process would place its block again
    }
}

TEST_CASE("persistent: a crash forfeits the turn, restarts, and after three restarts the bot sits out") {
    const WorkArea area;  // the players' scratch folders
    {
        BotPlayer p(persistent_bot("persist_bad/main.py", "crash"), {}, {area});
        std::vector<std::string> outcome;
        for (int tick = 0; tick < 14; ++tick) {
            MoveReport m = p.move(kBoard);
            outcome.push_back(m.ok() ? "ok" : std::string(name(m.forfeit->kind)));
        }
        // Each process answers twice, then exits 7 on its third line.
        CHECK(outcome == std::vector<std::string>{"ok", "ok", "exit_status", "ok", "ok", "exit_status", "ok", "ok",
                                                  "exit_status", "ok", "ok", "exit_status", "gave_up", "gave_up"});
    }
    CHECK_FALSE(running("persist_bad/main.py", "crash"));
}

TEST_CASE("persistent: a bot that stops answering times out and is replaced") {
    const WorkArea area;  // the players' scratch folders
    {
        BotPlayer p(persistent_bot("persist_bad/main.py", "hang"), {std::chrono::milliseconds(300)}, {area});
        CHECK(p.move(kBoard).ok());
        CHECK(p.move(kBoard).ok());
        MoveReport m = p.move(kBoard);
        REQUIRE_FALSE(m.ok());
        CHECK(m.forfeit->kind == ForfeitKind::timeout);
        CHECK(p.move(kBoard).ok());  // a fresh process
    }
    CHECK_FALSE(running("persist_bad/main.py", "hang"));
}

TEST_CASE("persistent: two lines for one tick break the protocol") {
    const WorkArea area;  // the players' scratch folders
    BotPlayer p(persistent_bot("persist_bad/main.py", "two"), {}, {area});
    CHECK(p.move(kBoard).ok());
    CHECK(p.move(kBoard).ok());
    CHECK(p.move(kBoard).ok());  // the first of its two lines
    MoveReport m = p.move(kBoard);
    CHECK(m.forfeit->kind == ForfeitKind::protocol);
    CHECK(m.forfeit->detail == "wrote more than one line for the previous tick");
    CHECK(p.move(kBoard).ok());
}

TEST_CASE("persistent: a board over 128 KiB of JSON arrives whole") {
    const WorkArea area;  // the players' scratch folders
    const std::string json = big_board_json();
    BotPlayer p(persistent_bot("persist_py/main.py", ""), {}, {area});
    MoveReport m = p.move(json);
    REQUIRE(m.ok());
    CHECK(m.cells.size() == 4);
}

TEST_CASE("start-up: a first move may take the start-up allowance besides the time limit, later moves may not") {
    const WorkArea area;  // the players' scratch folders
    MoveLimits limits = move_limits(200, 1024, 0, 5000);
    BotPlayer p(shell_bot("sleep 0.5; echo '[[1,1]]'", Protocol::argv), limits, {area});
    CHECK(p.move(kBoard).ok());
    MoveReport second = p.move(kBoard);
    REQUIRE_FALSE(second.ok());
    CHECK(second.forfeit->kind == ForfeitKind::timeout);
    CHECK(second.forfeit->detail.find("no reply within the limit of 200 ms per move") != std::string::npos);
}

TEST_CASE("start-up: a persistent bot that starts slowly plays; one slower than the allowance is told it had not "
          "read its board") {
    const WorkArea area;  // the players' scratch folders
    const std::string slow = "sleep 0.5; while read line; do echo '[]'; done";
    BotPlayer p(shell_bot(slow, Protocol::persistent), move_limits(300, 1024, 0, 5000), {area});
    CHECK(p.move(kBoard).ok());
    CHECK(p.move(kBoard).ok());

    BotPlayer none(shell_bot(slow, Protocol::persistent), move_limits(300, 1024, 0, 0), {area});
    MoveReport m = none.move(kBoard);
    REQUIRE_FALSE(m.ok());
    CHECK(m.forfeit->kind == ForfeitKind::timeout);
    CHECK(m.forfeit->detail.find("the bot had not read its board yet") != std::string::npos);
    CHECK(m.forfeit->detail.find("--startup-limit") != std::string::npos);
}

TEST_CASE("time bank: a move gets at most what is left of the bot's bank, whichever way it runs and in either time mode") {
    const WorkArea area;  // the players' scratch folders
    // A 5000 ms limit a move and a 1 s bank: a 3 s move is cut where the bank ends.
    const std::string slow = "sleep 3; echo '[]'";
    for (const auto& [protocol, cpu_time] :
         {std::pair{Protocol::argv, false}, std::pair{Protocol::persistent, false}, std::pair{Protocol::argv, true}}) {
        CAPTURE(cpu_time);
        const std::string script = protocol == Protocol::persistent ? "while read line; do " + slow + "; done" : slow;
        BotPlayer p(shell_bot(script, protocol), move_limits(5000, 1024, 0, 0, cpu_time), {area});
        p.limit_next_move(BankLeft{std::chrono::seconds(1), 1});
        const MoveReport m = p.move(kBoard);
        REQUIRE_FALSE(m.ok());
        CHECK(m.forfeit->kind == ForfeitKind::timeout);
        CHECK(m.forfeit->detail ==
              "no reply within the 1000 ms left of its time bank of 1 s, which is now spent: the bot is not run again "
              "this game");
    }
    // Without a bank the move has its own limit again.
    BotPlayer p(shell_bot("sleep 0.2; echo '[]'", Protocol::argv), move_limits(5000, 1024, 0, 0), {area});
    p.limit_next_move(BankLeft{std::chrono::milliseconds(50), 1});
    CHECK_FALSE(p.move(kBoard).ok());
    p.limit_next_move(std::nullopt);
    CHECK(p.move(kBoard).ok());
}

TEST_CASE("time mode cpu: a bot that waits is not timed out, one that computes past the limit is") {
    const WorkArea area;  // the players' scratch folders
    const MoveLimits cpu = move_limits(200, 1024, 0, 0, true);
    // 0.5 s of sleep: no CPU time, within the wall-clock backstop of 5 x 200 ms.
    BotPlayer waits(shell_bot("sleep 0.5; echo '[]'", Protocol::argv), cpu, {area});
    const MoveReport waited = waits.move(kBoard);
    CHECK_MESSAGE(waited.ok(), (waited.forfeit ? waited.forfeit->detail : ""));
    // The same in wall-clock mode times out.
    BotPlayer wall(shell_bot("sleep 0.5; echo '[]'", Protocol::argv), move_limits(200, 1024, 0, 0), {area});
    CHECK_FALSE(wall.move(kBoard).ok());
    // 0.35 s of its own CPU time.
    BotPlayer computes(shell_bot("python3 -c 'import time\nt = time.process_time()\nwhile time.process_time() - t < 0.35: "
                                 "pass\nprint(\"[]\")'",
                                 Protocol::argv),
                       cpu, {area});
    MoveReport m = computes.move(kBoard);
    REQUIRE_FALSE(m.ok());
    CHECK(m.forfeit->kind == ForfeitKind::timeout);
    CHECK(m.forfeit->detail.find("CPU") != std::string::npos);
}
