// End to end: each forfeit's message, the crash's stderr in the summary and -v's trace, through
// the real runner with a bot that provokes each.
#include "runner/testing/runner_fixture.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

using namespace gol::runner;
using gol::runner::testing::process_with;
using gol::runner::testing::contains;
using gol::runner::testing::read_text;
namespace fs = std::filesystem;

namespace {

struct MessagesFixture : testing::RunnerFixture {
    std::string marker = testing::unique_marker(31);
    MessagesFixture() {
        add_test_bots({"msg_debug.py", "msg_traceback.py", "msg_silent.py", "msg_unflushed", "msg_reads_stdin.py", "block.py"});
        testing::copy_marked(fs::path(TEST_BOTS_DIR) / "hang.sh", bots / "hang.sh", {{"31.4159", marker}});
    }

    // `runner duel A B` printing its summary, on a small board for three generations. Unless
    // `extra` sets the time limit, it is long: no move but a hanging one's is cut short on a loaded
    // machine, where a cold python3 can take longer than a short limit to start.
    RunOutcome duel(const std::string& a, const std::string& b, std::vector<std::string> extra = {}) {
        std::vector<std::string> args = {"duel", a, b, "--bots", bots.string(), "--cache", cache.string(),
                                         "--width", "20", "--height", "20", "--generations", "3", "--quiet"};
        if (std::find(extra.begin(), extra.end(), "--time-limit") == extra.end())
            args.insert(args.end(), {"--time-limit", "10000", "--startup-limit", "0"});
        args.insert(args.end(), extra.begin(), extra.end());
        RunOutcome r = runner(args);
        INFO("stdout: " << r.out);
        INFO("stderr: " << r.err);
        REQUIRE(r.kind == RunOutcome::Kind::exited);
        REQUIRE(r.exit_status == 0);
        return r;
    }
};

}  // namespace

TEST_CASE("messages: debug text before the reply is named, with the fix, and no JSON library text anywhere") {
    MessagesFixture f;
    const fs::path log = f.root.path() / "game.log";
    const fs::path replay = f.root.path() / "game.replay";
    RunOutcome r = f.duel("block", "msg_debug", {"--log", log.string(), "--replay", replay.string()});
    INFO(r.out);
    // Block wins by extinction after tick 0: one forfeited turn, named by its tick.
    CHECK(contains(r.out, "    last forfeit, at tick 0: not_json: the reply is not JSON: it starts with \"Debug: thinking...\" "
                     "(print debug text to stderr, not stdout)\n"));
    for (const std::string& text : {r.out, r.err, read_text(log), read_text(replay)}) {
        CHECK_FALSE(contains(text, "json.exception"));
        CHECK_FALSE(contains(text, "parse_error"));
    }
}

TEST_CASE("messages: a bot that prints nothing is asked whether it crashed or printed to stderr") {
    MessagesFixture f;
    RunOutcome r = f.duel("block", "msg_silent");
    CHECK(contains(r.out, "    last forfeit, at tick 0: not_json: the bot printed nothing on stdout (did it crash before "
                     "printing, or print to stderr?)\n"));
}

TEST_CASE("messages: a crashing Python bot's exit status, its traceback's last line, and its stderr's end") {
    MessagesFixture f;
    // A new interpreter per move, and a fork of a warm one.
    for (const std::vector<std::string>& how : {std::vector<std::string>{"--cold"}, std::vector<std::string>{}}) {
        CAPTURE(how.size());
        RunOutcome r = f.duel("block", "msg_traceback", how);
        INFO(r.out);
        CHECK(contains(r.out, "    last forfeit, at tick 0: exit_status: the bot exited with status 1; its stderr ends: "
                         "ModuleNotFoundError: No module named 'gol_no_such_module'\n"));
        // Its first move leaves it without cells: the game ends after tick 0.
        CHECK(contains(r.out, "    its stderr when it crashed at tick 0 ended:\n      | Traceback (most recent call last):\n"));
        CHECK(contains(r.out, "\n      |     import gol_no_such_module  # noqa: F401\n"));
        CHECK(contains(r.out, "\n      | ModuleNotFoundError: No module named 'gol_no_such_module'\nBots ran"));
    }
}

TEST_CASE("messages: an argv bot that reads stdin is told where its board is, in a duel and in check") {
    MessagesFixture f;
    const std::string hint = "hint: it seems to read the board from stdin, which an argv bot gets empty: the board is "
                             "its last command-line argument (Python: sys.argv[1]); or give it a bot.json with "
                             "\"protocol\": \"stdin\" (docs/protocol.md)\n";
    RunOutcome r = f.duel("block", "msg_reads_stdin");
    CHECK(contains(r.out, "Expecting value: line 1 column 1 (char 0)"));
    CHECK(contains(r.out, "\n    " + hint));
    r = f.runner({"check", "msg_reads_stdin", "--bots", f.bots.string(), "--runs", "1", "--width", "20", "--height", "20"});
    INFO("stdout: " << r.out << "stderr: " << r.err);
    CHECK(r.exit_status == 3);
    CHECK(contains(r.out, "\n      " + hint));
    // Another crash gets no such hint.
    CHECK_FALSE(contains(f.duel("block", "msg_traceback").out, "hint:"));
}

TEST_CASE("messages: a timeout says the limit and where the time went") {
    MessagesFixture f;
    RunOutcome r = f.duel("block", "hang", {"--generations", "1", "--time-limit", "300", "--startup-limit", "0"});
    // A timeout is named by its tick as a crash is.
    CHECK(contains(r.out, "    last forfeit, at tick 0: timeout: no reply within the limit of 300 ms per move: the time went into "
                     "the bot's run, starting it and its own work\n"));
    // A start-up allowance python3 takes on a loaded machine too: it has read its board by then.
    r = f.duel("block", "msg_unflushed", {"--generations", "1", "--time-limit", "300", "--startup-limit", "2000"});
    CHECK(contains(r.out, "    last forfeit, at tick 0: timeout: no reply line within the limit of 2300 ms (the time limit and the "
                     "start-up allowance of a first move) per move: the bot was still working, or its reply sat in its "
                     "output buffer (flush stdout after each reply line)\n"));
    CHECK_FALSE(process_with(f.marker));
}

TEST_CASE("messages: -v traces each board sent and each reply on stderr, on duel and on check") {
    MessagesFixture f;
    RunOutcome r = f.duel("block", "msg_debug", {"--generations", "1", "-v"});
    INFO(r.err);
    CHECK(contains(r.err, "tick 0 seat 1 (block): board 20x20, 0 live cells, 59 bytes of JSON\n"
                     "tick 0 seat 1 (block): reply in "));
    CHECK(contains(r.err, " ms: 4 cells [[2,2], [2,3], [3,2], [3,3]]\n"
                     "tick 0 seat 2 (msg_debug): board 20x20, 4 live cells, 98 bytes of JSON\n"
                     "tick 0 seat 2 (msg_debug): reply in "));
    CHECK(contains(r.err, " ms: forfeit not_json: the reply is not JSON: it starts with \"Debug: thinking...\""));

    RunOutcome check = f.runner({"check", "msg_debug", "--bots", f.bots.string(), "--cache", f.cache.string(),
                                 "--runs", "1", "--width", "20", "--height", "20", "-v"});
    INFO(check.out);
    INFO(check.err);
    CHECK(check.exit_status == 3);
    CHECK(contains(check.err, "tick 0 seat 1 (msg_debug): board 20x20, 0 live cells, 59 bytes of JSON\n"
                         "tick 0 seat 1 (msg_debug): reply in "));
    CHECK(contains(check.out, "FORFEIT not_json: the reply is not JSON: it starts with \"Debug: thinking...\""));
}
