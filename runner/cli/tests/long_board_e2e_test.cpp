// End to end: argv bots in every language the runner knows receive boards over Linux's 128 KiB
// argument limit whole, through the real runner (`check` probes with such a board, a duel
// plays into one), with and without the sandbox. The bots are in tests/long_board.
//
// What is tested is that the board arrives, not how fast: every run has a time limit only a hang
// reaches, so a machine loaded by the tests ctest runs beside these passes them too.
#include "runner/testing/runner_fixture.hpp"

#include "runner/sandbox/long_argument.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <string>

using namespace gol::runner;
using gol::runner::testing::read_text;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

// A move's time limit, in ms, that only a bot that hangs reaches.
const std::string kHangLimit = "30000";

struct Fixture : testing::RunnerFixture {
    Fixture() { fs::copy(LONG_BOARD_BOTS_DIR, bots, fs::copy_options::recursive); }

    RunOutcome check(const std::string& bot, bool sandbox) {
        std::vector<std::string> args = {"check",   (bots / bot).string(), "--bots",       bots.string(), "--cache",
                                         cache.string(), "--runs",         "1",            "--time-limit", kHangLimit};
        args.push_back(sandbox ? "--sandbox" : "--no-sandbox");
        return runner(args);
    }
};

bool has_bubblewrap() { return fs::exists("/usr/bin/bwrap"); }

// The big board's live cells and the bot's first reply to it, as `check` prints them.
struct BigBoardReply {
    long cells = -1;
    std::string reply;
};

// Read without std::regex: g++ 12 warns falsely in <regex> under the sanitizers.
BigBoardReply big_board_reply(const std::string& out) {
    const std::string head = "big board (";
    const std::size_t at = out.find(head);
    const std::size_t seat = out.find("seat 1, ", at);  // "seat 1, tick T:"
    if (at == std::string::npos || seat == std::string::npos) return {};
    BigBoardReply r;
    r.cells = std::stol(out.substr(at + head.size()));
    // The next line: "    12.3 ms  REPLY".
    const std::size_t line = out.find('\n', seat) + 1, end = out.find('\n', line);
    const std::size_t reply = out.find(" ms  ", line);
    if (reply == std::string::npos || reply > end) return {};
    r.reply = out.substr(reply + 5, end - reply - 5);
    return r;
}

// `bot` passes `check`, sandboxed and not (sandboxed only when `sandbox`), and counts every live
// cell of a board over 128 KiB.
void receives_whole_boards(Fixture& f, const std::string& bot, bool sandbox) {
    for (bool boxed : {false, true}) {
        if (boxed && !sandbox) continue;
        CAPTURE(bot);
        CAPTURE(boxed);
        RunOutcome r = f.check(bot, boxed);
        INFO("stdout: " << r.out);
        INFO("stderr: " << r.err);
        CHECK(r.exit_status == 0);
        CHECK(r.out.find("a board over 128 KiB: the bot receives it whole") != std::string::npos);
        BigBoardReply big = big_board_reply(r.out);
        REQUIRE(big.cells > 20000);
        // The bot counted every live cell of the board it got.
        const std::string expected =
            "[[" + std::to_string(big.cells / 1000) + "," + std::to_string(big.cells % 1000) + "]]";
        CHECK(big.reply.find("valid, 1 cells") == 0);
        CHECK(big.reply.find(expected) != std::string::npos);
    }
}

}  // namespace

TEST_CASE("e2e long boards: argv bots in eight languages, single files and manifests, receive the whole board") {
    Fixture f;
    const bool sandbox = has_bubblewrap();
    if (!sandbox) MESSAGE("bubblewrap is not installed (scripts/setup installs it): sandboxed runs left out");
    // The relay is a launch script that execs python3 with the board as "$1"; underscore runs a
    // program with the board in its environment as `_`, as bash may export its last argument.
    for (std::string bot : {"count.py", "count.rb", "count.js", "count.pl", "count.sh", "count.c", "count.cpp",
                            "Count.java", "bash", "relay", "underscore"})
        receives_whole_boards(f, bot, sandbox);
}

TEST_CASE("e2e long boards: scripts run through their #! line receive the whole board") {
    Fixture f;
    // Executables the kernel starts through their first line, which puts the interpreter (and its
    // option) in front of the board: bash in a file with no extension; `sh -e` as a manifest's
    // "./bot"; python3 by way of env, which is the program the library is loaded in first.
    for (std::string bot : {"hashbang_bash", "hashbang_sh", "hashbang_env"}) receives_whole_boards(f, bot, has_bubblewrap());
}

TEST_CASE("e2e long boards: a statically linked bot forfeits them with a message that names the ways out") {
    Fixture f;
    RunOutcome r = f.check("static", false);
    INFO("stdout: " << r.out);
    CHECK(r.exit_status == 3);
    CHECK(r.out.find("FORFEIT board_too_large") != std::string::npos);
    CHECK(r.out.find("statically linked") != std::string::npos);
    CHECK(r.out.find("link the bot dynamically, or use the stdin protocol") != std::string::npos);
    CHECK(r.out.find("a board over 128 KiB: NOT delivered") != std::string::npos);
    // Smaller boards still reach it as a plain argument.
    CHECK(r.out.find("busy board (") != std::string::npos);
    // The big board's two moves, and the late-game board's (once a seat): both over the limit.
    CHECK(r.out.find("4 of 8 moves would be forfeited") != std::string::npos);
}

TEST_CASE("e2e long boards: a game played into big boards is the same game whether the board comes as argv or stdin") {
    Fixture f;
    // filler fills its half of the board with blocks, 7 a tick, placed by how many of its cells
    // it counts on the board: a board cut short would change its moves. The same bot again,
    // told to take the board on stdin:
    fs::copy(f.bots / "filler", f.bots / "filler_stdin");
    std::ofstream(f.bots / "filler_stdin" / "bot.json")
        << R"({"run": ["./filler"], "build": "g++ -O2 -o filler filler.cpp", "protocol": "stdin", "name": "filler-stdin"})";
    auto play = [&](const std::string& bot, const std::string& name) {
        const fs::path replay = f.root.path() / (name + ".jsonl");
        json j = f.duel(bot, bot, {"--width", "240", "--height", "240", "--generations", "240", "--time-limit",
                                   kHangLimit, "--replay", replay.string()});
        return std::make_pair(j, replay);
    };
    auto [argv_game, argv_replay] = play((f.bots / "filler").string(), "argv");
    auto [stdin_game, stdin_replay] = play((f.bots / "filler_stdin").string(), "stdin");
    CHECK(argv_game["forfeits"]["filler"] == 0);
    CHECK(argv_game["forfeits"]["filler#2"] == 0);
    CHECK(argv_game["cells"]["filler"].get<int>() + argv_game["cells"]["filler#2"].get<int>() > 12000);
    CHECK(argv_game["cells"]["filler"] == stdin_game["cells"]["filler-stdin"]);
    CHECK(argv_game["cells"]["filler#2"] == stdin_game["cells"]["filler-stdin#2"]);

    // Move for move the same replay, but for the bots' names and protocol.
    auto moves = [](const fs::path& replay) {
        std::string text = read_text(replay);
        return text.substr(text.find('\n'));
    };
    CHECK(moves(argv_replay) == moves(stdin_replay));
    RunOutcome r = f.runner({"replay", argv_replay.string()});
    CHECK(r.exit_status == 0);
    CHECK(r.out.find("OK") != std::string::npos);
}
