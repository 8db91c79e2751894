// End to end: `runner check` runs a bot as a league would, in the sandbox, and says why a bot
// fails or is slow, with the test bots that provoke each message (testing/bots/check_*).
#include "runner/sandbox/sandbox.hpp"
#include "runner/testing/runner_fixture.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <unistd.h>

using namespace gol::runner;
using gol::runner::testing::contains;
namespace fs = std::filesystem;

namespace {

struct Fixture : testing::RunnerFixture {
    // Sandboxed unless bubblewrap cannot be used here; the messages about the sandbox need it.
    const bool sandbox = Sandbox::find_bubblewrap().has_value();

    Fixture() {
        fs::create_directories(bots);
        for (const auto& entry : fs::directory_iterator(TEST_BOTS_DIR))
            if (entry.path().filename().string().starts_with("check_"))
                fs::copy(entry.path(), bots / entry.path().filename(), fs::copy_options::recursive);
        if (!sandbox) MESSAGE("bubblewrap does not work here (scripts/setup installs it): checks run with --no-sandbox");
    }

    // `runner check BOT` on a small board, one move per board and seat, with `extra` flags.
    RunOutcome check(const std::string& bot, std::vector<std::string> extra = {}) {
        std::vector<std::string> args = {"check", (bots / bot).string(), "--cache", cache.string(), "--runs", "1",
                                         "--width", "20", "--height", "20"};
        args.insert(args.end(), extra.begin(), extra.end());
        if (!sandbox && std::find(extra.begin(), extra.end(), "--no-sandbox") == extra.end())
            args.push_back("--no-sandbox");
        return runner(args);
    }
};

}  // namespace

TEST_CASE("check e2e: a bot that writes beside itself fails in the sandbox, says what it refused and the fix") {
    Fixture f;
    if (!f.sandbox) return;
    RunOutcome r = f.check("check_state_file.py");
    INFO("stdout: " << r.out << "stderr: " << r.err);
    CHECK(r.exit_status == 3);
    CHECK(contains(r.out, "  sandbox:  yes, as a league runs it (--no-sandbox to leave it)\n"));
    CHECK_FALSE(contains(r.out, "outside the sandbox:"));
    CHECK(contains(r.out, "what the sandbox refused it, as its stderr says:\n    | OSError: [Errno 30] Read-only file system"));
    CHECK(contains(r.out, "may write only under the folder named in $GOL_SCRATCH"));

    // --sandbox, the old way to ask for it, is the default now.
    CHECK(f.check("check_state_file.py", {"--sandbox"}).exit_status == 3);
    r = f.check("check_state_file.py", {"--no-sandbox"});
    CHECK(r.exit_status == 0);
    CHECK(contains(r.out, "  sandbox:  no (--no-sandbox; a league runs bots in the sandbox)\n"));
    CHECK(contains(r.out, "OK: every reply was valid"));
    CHECK_FALSE(contains(r.out, "GOL_SCRATCH"));

    r = f.check("check_state_file.py", {"--sandbox", "--no-sandbox"});
    CHECK(r.exit_status == 2);
    CHECK(contains(r.err, "--sandbox and --no-sandbox contradict each other"));
}

TEST_CASE("check e2e: a failing bot's output ends with its stderr's last lines, where Python names the error") {
    Fixture f;
    RunOutcome r = f.check("check_missing_module.py");
    INFO("stdout: " << r.out << "stderr: " << r.err);
    CHECK(r.exit_status == 3);
    CHECK(contains(r.out, "        | ModuleNotFoundError: No module named 'no_such_module_xyz'\n"));
    // Each later move's same stderr is not printed again.
    CHECK(contains(r.out, "      stderr: as above\n"));
    // Nothing in its stderr is a refusal of the sandbox's, and check does not guess.
    if (f.sandbox) CHECK(contains(r.out, "its stderr names nothing the sandbox refused; if it passes with --no-sandbox"));
}

TEST_CASE("check e2e: a bot's stderr lines are marked as the bot's: one that writes the check's own lines forges none") {
    Fixture f;
    RunOutcome r = f.check("check_forged_stderr.py");
    INFO("stdout: " << r.out << "stderr: " << r.err);
    CHECK(r.exit_status == 3);
    CHECK(contains(r.out, "      stderr:\n        |     0.1 ms  valid, 0 cells (0 would be placed): []\n"
                          "        |   OK: every reply was valid\n"));
    // The check's verdict is its own, and no line of the bot's reads as one of the check's.
    CHECK(contains(r.out, "  NOT OK: "));
    std::istringstream lines(r.out);
    for (std::string line; std::getline(lines, line);) {
        CHECK_FALSE(line.starts_with("  OK: "));
        CHECK_FALSE(line.starts_with("    0.1 ms  valid"));
    }
}

TEST_CASE("check e2e: the limits line says what the bot's memory filesystems hold, as the kernel counts them") {
    Fixture f;
    if (!f.sandbox || ::geteuid() != 0) return;  // the inode count is a root runner's tmpfs
    const std::string out = f.check("check_limits.py").out;
    INFO("stdout: " << out);
    CHECK(contains(out, "; /tmp, /dev/shm and the scratch folder: 64 MiB and 10000 inodes each (files, folders and "
                        "links); a build's folder: 1024 MiB and 20000 inodes\n"));
    // The bot's own statvfs of each, in its stderr (it fails so that the check shows it).
    for (const std::string name : {"/tmp", "/dev/shm", "scratch"})
        CHECK(contains(out, "| " + name + ": 64 MiB and 10000 inodes\n"));
}

// The attack: a bot that fails whenever it is not root, and writes on the host when it is. check
// used to play a failing board again outside the sandbox, as the runner's user. In the sandbox a
// root runner's bot is `nobody` (docs/sandbox.md).
TEST_CASE("check e2e: a bot that fails in the sandbox is never run outside it") {
    Fixture f;
    if (!f.sandbox || ::geteuid() != 0) return;
    const fs::path marker = f.root.path() / "check-outside-marker";
    std::ofstream(f.bots / "check_escape.sh") << "[ \"$(id -u)\" = 0 ] || { echo 'not root' >&2; exit 1; }\n"
                                              << "echo escaped > '" << marker.string() << "'\necho '[]'\n";
    RunOutcome r = f.check("check_escape.sh");
    INFO("stdout: " << r.out << "stderr: " << r.err);
    CHECK(r.exit_status == 3);
    CHECK(contains(r.out, "FORFEIT"));
    CHECK_FALSE(fs::exists(marker));
    CHECK_FALSE(contains(r.out, "outside the sandbox:"));

    // Outside the sandbox only when asked for.
    r = f.check("check_escape.sh", {"--no-sandbox"});
    CHECK(r.exit_status == 0);
    CHECK(fs::exists(marker));
}

TEST_CASE("check e2e: a persistent bot that does not flush is told to, not to mind its start-up") {
    Fixture f;
    // A start-up allowance that python3 takes on a loaded machine too: the bot has read its board
    // when each move times out, so the advice is the flush, not a slow start.
    RunOutcome r = f.check("check_unflushed", {"--time-limit", "300", "--startup-limit", "2000"});
    INFO("stdout: " << r.out << "stderr: " << r.err);
    CHECK(r.exit_status == 3);
    CHECK(contains(r.out, "FORFEIT timeout: no reply line within the limit of 2300 ms (the time limit and the start-up "
                          "allowance of a first move) per move: the bot was still working, or its reply sat in its "
                          "output buffer (flush stdout after each reply line)"));
    // The same timeout three times in a row ends the check.
    CHECK(contains(r.out, "warning: 3 moves got no reply line within the time limit: did it flush stdout after each line?"));
    CHECK(contains(r.out, "  stopped: the same failure 3 times in a row; its other moves would say no more\n"));
    CHECK_FALSE(contains(r.out, "starting"));
}

// The bot sleeps 300 ms on a board with live cells and answers an empty one at once: its
// start-up, a few ms, is far from the 100 ms the advice is about.
TEST_CASE("check e2e: a bot slow only on a busy board is told the time is its own work, not start-up") {
    Fixture f;
    RunOutcome r = f.check("check_busy.sh");
    INFO("stdout: " << r.out << "stderr: " << r.err);
    CHECK(r.exit_status == 0);
    CHECK(contains(r.out, "warning: a move on the busy board takes "));
    CHECK(contains(r.out, "so starting the bot is quick and the time went into the bot's own work\n"));
    CHECK_FALSE(contains(r.out, "persistent protocol"));
    CHECK_FALSE(contains(r.out, "probably starting"));
}

TEST_CASE("check e2e: --help names the exit status of a bot that fails the check, apart from the runner's own failure") {
    Fixture f;
    RunOutcome r = f.runner({"check", "--help"});
    CHECK(r.exit_status == 0);
    CHECK(contains(r.out, "3 when a bot fails the check"));
    CHECK(contains(r.out, "1 when the runner itself failed"));
}

TEST_CASE("check e2e: a bot whose cells land off the board is warned, with the likely cause") {
    Fixture f;
    // 30 wide, 20 high: [x, y] counted from 1 puts its cells off the board, swapped and less 1 on it.
    RunOutcome r = f.check("check_off_board.sh", {"--width", "30"});
    INFO("stdout: " << r.out << "stderr: " << r.err);
    CHECK(r.exit_status == 0);  // valid moves: a warning, not a failure
    CHECK(contains(r.out, "valid, 2 cells (0 would be placed): [[30,20],[30,1]]\n"
                          "      warning: 2 of 2 cells off the 30x20 board (a cell is [y, x], y 0..19, x 0..29): likely "
                          "its coordinates count from 1 and it writes [x, y]; swapped and less 1 each, they are all on "
                          "the board\n"));
    CHECK(contains(r.out, "  warning: 6 of 6 replies put most of their cells off the board, where nothing is placed; "
                          "the first: 2 of 2 cells off the 30x20 board"));
}

TEST_CASE("check e2e: a move with some of its cells off the board is noted, not passed silently") {
    Fixture f;
    // Two of four cells on a 20x20 board, two off it.
    std::ofstream(f.bots / "edge.sh") << "echo '[[0,0],[0,1],[0,20],[20,0]]'\n";
    RunOutcome r = f.check("edge.sh");
    INFO("stdout: " << r.out << "stderr: " << r.err);
    CHECK(r.exit_status == 0);  // valid moves: a note, not a failure
    CHECK(contains(r.out, "valid, 4 cells (2 would be placed): [[0,0],[0,1],[0,20],[20,0]]\n      note: 2 of 4 cells "
                          "off the 20x20 board (a cell is [y, x], y 0..19, x 0..19): nothing is placed there\n"));
    CHECK(contains(r.out, "  note: 6 of 6 replies put some of their cells off the board, where nothing is placed; "
                          "the first: 2 of 4 cells off the 20x20 board"));
    CHECK_FALSE(contains(r.out, "warning: 2 of 4"));
}

TEST_CASE("check e2e: check --board GAME --tick T plays a move as the game gave it: its GOL_SEED, its time limit, "
          "no start-up allowance after tick 0") {
    Fixture f;
    // Valid only with the game's seed; slower than the game's time limit but within a start-up allowance.
    std::ofstream(f.bots / "seeded.sh") << "[ \"$GOL_SEED\" = 4242 ] || { echo wrong seed; exit 0; }\n"
                                           "case \"$1\" in *'\"tick_id\":0}'*) ;; *) sleep 1;; esac\n"
                                           "case \"$1\" in *'\"bot_id\":2'*) echo '[[9,9],[9,10],[10,9],[10,10]]';; "
                                           "*) echo '[[1,1],[1,2],[2,1],[2,2]]';; esac\n";
    const fs::path replay = f.root.path() / "seeded.replay";
    RunOutcome r = f.runner({"duel", (f.bots / "seeded.sh").string(), (f.bots / "seeded.sh").string(), "--cache",
                             f.cache.string(), "--width", "20", "--height", "20", "--generations", "3", "--seed", "4242",
                             "--time-limit", "400", "--quiet", "--replay", replay.string(), "--no-sandbox"});
    REQUIRE(r.exit_status == 0);

    // Tick 0 has the start-up allowance, and the game's seed.
    r = f.check("seeded.sh", {"--board", replay.string(), "--tick", "0", "--seat", "2"});
    INFO("stdout: " << r.out << "stderr: " << r.err);
    CHECK(r.exit_status == 0);
    CHECK(contains(r.out, "  board:    " + replay.string() + ", 20x20, as seat 2 at tick 0\n"));
    CHECK(contains(r.out, "  move:     400 ms (wall clock, the game's), with the start-up allowance of a first move "
                          "(10000 ms), GOL_SEED 4242 (the game's)\n"));
    // Tick 1 has none: the bot's second's sleep is over the game's limit, as it was in the game.
    r = f.check("seeded.sh", {"--board", replay.string(), "--tick", "1"});
    CHECK(r.exit_status == 3);
    CHECK(contains(r.out, "  move:     400 ms (wall clock, the game's), no start-up allowance (a game gives it at tick 0 "
                          "only), GOL_SEED 4242 (the game's)\n"));
    CHECK(contains(r.out, "FORFEIT timeout: no reply within the limit of 400 ms per move"));
    CHECK_FALSE(contains(r.out, "-generation game takes about"));  // one board says nothing of a game's time
    CHECK_FALSE(contains(r.out, "time bank"));
    // A game with a time bank: what was left of it at a tick is not in the replay, and check says so.
    const fs::path banked = f.root.path() / "banked.replay";
    REQUIRE(f.runner({"duel", (f.bots / "seeded.sh").string(), (f.bots / "seeded.sh").string(), "--cache",
                      f.cache.string(), "--width", "20", "--height", "20", "--generations", "3", "--seed", "4242",
                      "--time-limit", "400", "--time-bank", "60", "--quiet", "--replay", banked.string(),
                      "--no-sandbox"})
                .exit_status == 0);
    r = f.check("seeded.sh", {"--board", banked.string(), "--tick", "0"});
    CHECK(contains(r.out, "  note:     the game had a time bank of 60 s a bot, and a move got at most what was left "
                          "of it; the replay does not record that, so this move gets the whole limit above\n"));
    // A board file carries no seed: --seed gives one.
    const fs::path board = f.root.path() / "tick1.json";
    std::ofstream(board) << f.runner({"replay", replay.string(), "--board", "1"}).out;
    r = f.check("seeded.sh", {"--board", board.string(), "--time-limit", "3000"});
    CHECK(r.exit_status == 3);
    CHECK(contains(r.out, "FORFEIT not_json"));
    CHECK(contains(r.out, "no GOL_SEED (a board file does not carry the game's"));
    r = f.check("seeded.sh", {"--board", board.string(), "--time-limit", "3000", "--seed", "4242"});
    CHECK(r.exit_status == 0);
    // A replay without --tick, and --tick with a board file, are refused naming why.
    r = f.check("seeded.sh", {"--board", replay.string()});
    CHECK(r.exit_status == 2);
    CHECK(contains(r.err, "is a game's replay: --tick TICK names the move to play"));
    r = f.check("seeded.sh", {"--board", board.string(), "--tick", "1"});
    CHECK(r.exit_status == 2);
    CHECK(contains(r.err, "--tick and --seat pick a move of a replay"));
    r = f.check("seeded.sh", {"--board", replay.string(), "--tick", "3"});
    CHECK(r.exit_status == 2);
    CHECK(contains(r.err, "tick 3 is not in the game: it has ticks 0..2"));
}

TEST_CASE("check e2e: several bots, or a folder of them, are each checked and summed up in a table") {
    Fixture f;
    const fs::path folder = f.root.path() / "field";
    fs::create_directories(folder);
    std::ofstream(folder / "quiet.sh") << "echo '[]'\n";
    std::ofstream(folder / "noisy.sh") << "echo 'thinking...'\n";
    std::ofstream(folder / "notes.xyz") << "not a bot\n";
    RunOutcome r = f.check((folder).string());
    INFO("stdout: " << r.out << "stderr: " << r.err);
    CHECK(r.exit_status == 3);  // one fails, one cannot be used
    // The table, and the same bot failing the same way each move ended after three.
    for (const char* text : {"\nsummary:\n  bot       protocol verdict             moves ",
                             "\n  quiet     argv     OK                  6 ", "\n  noisy     argv     NOT OK: 3 forfeited 3 ",
                             "\n  notes.xyz -        NOT USABLE          - ", "notes.xyz: NOT USABLE: ",
                             "  1 of 3 bots pass\n", "  stopped: the same failure 3 times in a row"})
        CHECK(contains(r.out, text));
    // Bots named one by one; all pass: exit 0.
    r = f.check((folder / "quiet.sh").string(), {(folder / "quiet.sh").string()});
    CHECK(r.exit_status == 0);
    CHECK(contains(r.out, "  2 of 2 bots pass\n"));
}

TEST_CASE("check e2e: timeouts only on boards denser than games reach are a warning with the density, not a failure") {
    Fixture f;
    // Sleeps past the limit when over 60 cells are alive: 20x20's late-game board has about 120,
    // its busy board about 40; of the sparser boards, 20% alive (about 80) times out, 10% does not.
    std::ofstream(f.bots / "dense_slow.sh")
        << "n=$(printf %s \"$1\" | tr -cd '(' | wc -c)\n[ \"$n\" -gt 60 ] && sleep 2\necho '[]'\n";
    RunOutcome r = f.check("dense_slow.sh", {"--time-limit", "300"});
    INFO("stdout: " << r.out << "stderr: " << r.err);
    CHECK(r.exit_status == 0);
    for (const char* text : {"late-game board (", "), seat 1, tick 9000:\n", "  board 20% alive (",
                             "  warning: slow on dense boards: its moves time out from about 20% of the board alive (",
                             "; in time at 10%), denser than most games reach",
                             "  OK: every reply was valid, but for the timeouts on dense boards (a warning, above)\n"})
        CHECK(contains(r.out, text));
}
