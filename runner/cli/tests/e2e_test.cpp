// End to end: the real runner binary against real bots in Python, shell and C++.
#include "runner/testing/runner_fixture.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include <signal.h>

using namespace gol::runner;
using gol::runner::testing::process_with;
using gol::runner::testing::contains;
using gol::runner::testing::read_text;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

// A private copy of the test bots, so builds write nowhere in the source tree; the hanging
// bot's sleeps marked as this fixture's own.
struct Fixture : testing::RunnerFixture {
    std::string marker = testing::unique_marker(31);
    Fixture() { testing::copy_marked(TEST_BOTS_DIR, bots, {{"31.4159", marker}}); }

    // `runner check BOT` on a small board, one move per board and seat, with `extra` flags.
    RunOutcome check(const std::string& bot, std::vector<std::string> extra = {}) {
        std::vector<std::string> args = {"check", bot, "--bots", bots.string(), "--cache", cache.string(),
                                         "--runs", "1", "--width", "20", "--height", "20"};
        args.insert(args.end(), extra.begin(), extra.end());
        return runner(args);
    }
};

// The line of `text` that starts with `start`, or "" when there is none.
std::string line_starting(const std::string& text, const std::string& start) {
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);)
        if (line.starts_with(start)) return line;
    return "";
}

}  // namespace

TEST_CASE("e2e: duel --time-bank: a move gets at most what is left of the bank, and once it is spent the bot's "
          "moves are forfeited without running it") {
    Fixture f;
    // bank_spender's second move would take 1.2 s: it is cut where its 1 s bank ends, and the bot
    // is not run for ticks 2-3, which its replay holds as time_bank forfeits.
    const fs::path replay = f.root.path() / "bank.replay";
    json j = f.duel("bank_spender", "idle", {"--generations", "4", "--time-bank", "1", "--no-sandbox", "--replay",
                                             replay.string()});
    CHECK(read_text(f.bots / "bank_moves.txt") == "move\nmove\n");
    CHECK(j["time_bank_s"] == 1);
    CHECK(j["generations"] == 4);
    CHECK(j["forfeits"]["bank_spender"] == 3);
    CHECK(j["forfeit_reasons"]["bank_spender"] == json{{"time_bank", 2}, {"timeout", 1}});
    CHECK(j["forfeits"]["idle"] == 0);
    const std::string text = read_text(replay);
    CHECK(contains(text, "\"time_bank_s\":1"));
    CHECK(contains(text, " ms left of its time bank of 1 s, which is now spent: the bot is not run again this game"));
    CHECK(contains(text, "{\"detail\":\"time bank of 1 s spent (its moves took 1."));
    CHECK(contains(text, "\"forfeit\":\"time_bank\"}"));

    // runner replay lists them by tick, and the duel's summary names the bank.
    RunOutcome listed = f.runner({"replay", replay.string()});
    CHECK(listed.exit_status == 0);
    CHECK(contains(listed.out, "tick 1, seat 1 (bank_spender): timeout: no reply within the "));
    CHECK(contains(listed.out, "ticks 2-3, seat 1 (bank_spender): time_bank: time bank of 1 s spent"));
    RunOutcome summary = f.runner({"duel", "bank_spender", "idle", "--bots", f.bots.string(), "--cache",
                                   f.cache.string(), "--width", "20", "--height", "20", "--generations", "3",
                                   "--time-bank", "1", "--no-sandbox", "--quiet"});
    CHECK(summary.exit_status == 0);
    CHECK(contains(summary.out, ", a time bank of 1 s a bot\n"));
    CHECK(contains(summary.out, "forfeits (time_bank 1, timeout 1)"));
    CHECK(read_text(f.bots / "bank_moves.txt") == "move\nmove\nmove\nmove\n");  // a new game, a new bank

    RunOutcome bad = f.runner({"duel", "bank_spender", "idle", "--bots", f.bots.string(), "--time-bank", "-5"});
    CHECK(bad.exit_status == 2);
    CHECK(contains(bad.err, "--time-bank"));
}

TEST_CASE("e2e: duel --json reports the winner, reason, cells, forfeits and seats") {
    Fixture f;
    json j = f.duel("block", "idle");
    CHECK(j["winner"] == "block");
    CHECK(j["reason"] == "extinction");
    CHECK(j["generations"] == 1);
    CHECK(j["cells"]["block"] == 4);
    CHECK(j["cells"]["idle"] == 0);
    CHECK(j["forfeits"]["idle"] == 0);
    CHECK(j["seats"]["block"] == 1);
    CHECK(j["seats"]["idle"] == 2);
}

TEST_CASE("e2e: a duel runs its bots in the sandbox unless told --no-sandbox") {
    Fixture f;
    CHECK(f.duel("block", "idle")["sandboxed"] == true);
    CHECK(f.duel("block", "idle", {"--no-sandbox"})["sandboxed"] == false);
    RunOutcome r = f.runner({"duel", "block", "idle", "--bots", f.bots.string(), "--cache", f.cache.string(),
                             "--width", "20", "--height", "20", "--generations", "2", "--quiet"});
    CHECK(r.exit_status == 0);
    CHECK(contains(r.out, "Bots ran in the sandbox, as in a league (--no-sandbox to leave it)\n"));
    r = f.runner({"duel", "block", "idle", "--bots", f.bots.string(), "--sandbox", "--no-sandbox"});
    CHECK(r.exit_status == 2);
    CHECK(contains(r.err, "--sandbox and --no-sandbox contradict each other"));
}

TEST_CASE("e2e: a duel's summary warns of a seat whose cells land off the board, with the likely cause") {
    Fixture f;
    RunOutcome r = f.runner({"duel", "idle", "check_off_board", "--bots", f.bots.string(), "--cache",
                             f.cache.string(), "--width", "30", "--height", "20", "--generations", "3", "--quiet"});
    INFO("stdout: " << r.out << "stderr: " << r.err);
    CHECK(r.exit_status == 0);
    CHECK(contains(r.out, "  warning: check_off_board put most of a move's cells off the board in 3 of its moves; the "
                          "first, at tick 0: 2 of 2 cells off the 30x20 board (a cell is [y, x], y 0..19, x 0..29): "
                          "likely its coordinates count from 1 and it writes [x, y]"));
    CHECK_FALSE(contains(r.out, "warning: idle"));
    json j = f.duel("idle", "check_off_board", {"--width", "30", "--generations", "3"});
    CHECK(j["off_board_moves"]["check_off_board"] == 3);
    CHECK(j["off_board_moves"]["idle"] == 0);
}

TEST_CASE("e2e: Python, C++, stdin and persistent bots play full games to a draw") {
    Fixture f;
    json j = f.duel((f.bots / "block.cpp").string(), "block");
    CHECK(j["winner"].is_null());
    CHECK(j["reason"] == "generations");
    CHECK(j["generations"] == 5);
    CHECK(j["cells"]["block"] == 4);
    j = f.duel("stdin_block", "block", {"--generations", "7"});
    CHECK(j["reason"] == "generations");
    CHECK(j["generations"] == 7);
    CHECK(j["cells"]["stdin_block"] == 4);
    // Persistent bots in C++ (built by its manifest) and Python: one process each per game.
    j = f.duel("persist_cpp", "persist_py", {"--generations", "50"});
    CHECK(j["reason"] == "generations");
    CHECK(j["cells"]["persist_cpp"] == 4);
    CHECK(j["cells"]["persist_py"] == 4);
    CHECK(j["forfeits"]["persist_cpp"] == 0);
    CHECK(j["forfeits"]["persist_py"] == 0);
}

TEST_CASE("e2e: a compiled bot plays from a build cache named by a relative path") {
    Fixture f;
    // The runner's folder is the fixture's; bots run in their own folders.
    RunOutcome r;
    json j = f.duel((f.bots / "block.cpp").string(), "idle", {"--cache", "relative-cache"}, &r);
    CHECK(j["forfeits"]["block"] == 0);
    CHECK(j["winner"] == "block");
    CHECK(fs::exists(f.root.path() / "relative-cache" / "bin"));
}

TEST_CASE("e2e: a bot against itself is NAME and NAME#2") {
    Fixture f;
    json j = f.duel("block", "block");
    CHECK(j["seats"]["block"] == 1);
    CHECK(j["seats"]["block#2"] == 2);
}

TEST_CASE("e2e: every way a bot can fail forfeits its turn with the right reason") {
    Fixture f;
    struct Case {
        const char* bot;
        const char* reason;
    };
    for (const Case& c : {Case{"hang", "timeout"}, Case{"crash", "signal"}, Case{"flood", "output_cap"},
                          Case{"garbage", "not_json"}, Case{"exit3", "exit_status"},
                          Case{"too_many", "too_many_cells"}}) {
        CAPTURE(c.bot);
        json j = f.duel("block", c.bot, {"--time-limit", "500"});
        CHECK(j["winner"] == "block");
        CHECK(j["forfeits"][c.bot] == 1);
        CHECK(j["forfeit_reasons"][c.bot][c.reason] == 1);
    }
    CHECK_FALSE(process_with(f.marker));
}

TEST_CASE("e2e: a bot flooding stderr still gets its reply through, and the log keeps a capped copy") {
    Fixture f;
    fs::path log = f.root.path() / "game.log";
    json j = f.duel("stderr_flood", "block", {"--log", log.string()});
    CHECK(j["forfeits"]["stderr_flood"] == 0);
    CHECK(fs::file_size(log) < std::size_t{2} << 20);
    CHECK(fs::file_size(log) > std::size_t{32} << 10);
}

TEST_CASE("e2e: a manifest build runs, and the bot plays") {
    Fixture f;
    json j = f.duel("built", "block");
    CHECK(j["seats"]["built-c"] == 1);
    CHECK(j["forfeits"]["built-c"] == 0);
    // Built on a copy in the cache: the bot's own folder is left as it was.
    CHECK_FALSE(fs::exists(f.bots / "built" / "bot"));
}

TEST_CASE("e2e: a replay re-simulates to its result, and a doctored one does not") {
    Fixture f;
    fs::path replay = f.root.path() / "game.replay";
    f.duel("block", (f.bots / "block.cpp").string(), {"--replay", replay.string(), "--generations", "30"});
    RunOutcome ok = f.runner({"replay", replay.string()});
    CHECK(ok.exit_status == 0);
    CHECK(ok.out.find("OK") != std::string::npos);

    std::string text = read_text(replay);
    auto at = text.find("\"cells\":[4,4]");
    REQUIRE(at != std::string::npos);
    text.replace(at, 13, "\"cells\":[4,5]");
    std::ofstream(replay) << text;
    RunOutcome bad = f.runner({"replay", replay.string()});
    CHECK(bad.exit_status == 1);
    CHECK(bad.out.find("MISMATCH") != std::string::npos);
}

TEST_CASE("e2e: replay --board prints the JSON a seat was sent, and check --board runs a bot on it") {
    Fixture f;
    const fs::path replay = f.root.path() / "echo.replay", log = f.root.path() / "echo.log";
    f.duel("echo_board", "echo_board", {"--replay", replay.string(), "--log", log.string(), "--generations", "6"});
    // The log holds what each seat was sent, in the order sent: "tick T seat S (...) stderr:" then the
    // bot's line, marked as the bot's: "  | BOARD <json>".
    std::istringstream lines(read_text(log));
    std::vector<std::string> sent;
    for (std::string line; std::getline(lines, line);)
        if (line.starts_with("  | BOARD ")) sent.push_back(line.substr(10));
    REQUIRE(sent.size() == 12);
    for (int tick = 0; tick < 6; ++tick)
        for (int seat = 1; seat <= 2; ++seat) {
            CAPTURE(tick);
            CAPTURE(seat);
            RunOutcome r = f.runner({"replay", replay.string(), "--board", std::to_string(tick), "--seat", std::to_string(seat)});
            CHECK(r.exit_status == 0);
            CHECK(r.out == sent[static_cast<std::size_t>(tick * 2 + seat - 1)] + "\n");
        }
    RunOutcome r = f.runner({"replay", replay.string(), "--board", "6", "--seat", "1"});
    CHECK(r.exit_status == 2);
    CHECK(contains(r.err, "--board 6 --seat 1: tick 6 is not in the game: it has ticks 0..5"));

    // The board seat 2 was sent at tick 2, played again: the same reply as in the game.
    const fs::path board = f.root.path() / "tick2.json";
    std::ofstream(board) << f.runner({"replay", replay.string(), "--board", "2", "--seat", "2"}).out;
    r = f.check("echo_board", {"--board", board.string()});
    INFO("stdout: " << r.out << "stderr: " << r.err);
    CHECK(r.exit_status == 0);
    CHECK(contains(r.out, "  board:    " + board.string() + ", 20x20, as seat 2 at tick 2\n"));
    CHECK_FALSE(contains(r.out, "note:"));
    CHECK(contains(r.out, "  board from --board ("));
    CHECK(contains(r.out, "), seat 2, tick 2:\n"));
    CHECK_FALSE(contains(r.out, "seat 1,"));
    CHECK(contains(r.out, ": [[8,4],[8,5],[9,4],[9,5]]\n"));
    CHECK_FALSE(contains(r.out, "a board over 128 KiB"));  // the game's board was small

    std::ofstream(board) << R"j({"y_size":20,"x_size":20,"board":{"(25,1)":1},"bot_id":1,"tick_id":0})j";
    r = f.check("echo_board", {"--board", board.string()});
    CHECK(r.exit_status == 2);
    CHECK(contains(r.err, "--board " + board.string() + ": \"board\": the key \"(25,1)\" is not \"(y,x)\" on the 20x20 board"));
}

TEST_CASE("e2e: the duel's summary, replay's listing and replay --board name a forfeited turn by the same tick") {
    Fixture f;
    // Times out at tick 3 and replies junk at tick 5: a turn of each kind, at a tick of its own.
    std::ofstream(f.bots / "late.sh") << "case \"$1\" in *'\"tick_id\":3,'*|*'\"tick_id\":3}'*) sleep 2;; "
                                         "*'\"tick_id\":5'*) echo junk; exit 0;; esac\necho '[[1,1],[1,2],[2,1],[2,2]]'\n";
    const fs::path replay = f.root.path() / "late.replay";
    RunOutcome r = f.runner({"duel", "late", "block", "--bots", f.bots.string(), "--cache", f.cache.string(), "--width",
                             "20", "--height", "20", "--generations", "8", "--time-limit", "300", "--quiet", "--replay",
                             replay.string()});
    INFO("stdout: " << r.out << "stderr: " << r.err);
    REQUIRE(r.exit_status == 0);
    CHECK(contains(r.out, "    forfeited: tick 3 timeout, tick 5 not_json\n    last forfeit, at tick 5: not_json: "));
    r = f.runner({"replay", replay.string()});
    CHECK(r.exit_status == 0);
    CHECK(contains(r.out, "  forfeits:    by tick (runner replay " + replay.string() +
                              " --board TICK --seat N prints the board that turn was sent):\n"
                              "    tick 3, seat 1 (late): timeout: no reply within the limit of 300 ms per move"));
    CHECK(contains(r.out, "\n    tick 5, seat 1 (late): not_json: the reply is not JSON: it starts with \"junk\""));
    // The board of that turn is the one sent with that tick_id.
    r = f.runner({"replay", replay.string(), "--board", "3", "--seat", "1"});
    CHECK(contains(r.out, "\"tick_id\":3}"));
    // A game without forfeits says so.
    f.duel("block", "idle", {"--replay", replay.string(), "--generations", "2"});
    CHECK(contains(f.runner({"replay", replay.string()}).out, "  forfeits:    none\n"));
}

TEST_CASE("e2e: small words: a missing bot named, check . by its folder's name, one generation singular") {
    Fixture f;
    RunOutcome r = f.runner({"duel", "block"});
    CHECK(r.exit_status == 2);
    CHECK(contains(r.err, "runner: error: duel is missing B (Second bot): runner duel [OPTIONS] A B (runner duel --help)\n"));
    r = f.runner({"check"});
    CHECK(r.exit_status == 2);
    CHECK(contains(r.err, "check is missing BOT (A path, or a name under --bots;"));

    // A manifest bot without a "name", checked from inside its folder, is named by the folder.
    fs::create_directories(f.bots / "mine");
    fs::copy(f.bots / "block.py", f.bots / "mine" / "block.py");
    std::ofstream(f.bots / "mine" / "bot.json") << R"({"run": ["python3", "block.py"]})";
    SpawnSpec spec;
    spec.argv = {RUNNER_BIN, "check", ".", "--cache", f.cache.string(), "--runs", "1", "--width", "20", "--height", "20"};
    spec.cwd = f.bots / "mine";
    spec.env = {"PATH=/usr/local/bin:/usr/bin:/bin", "TMPDIR=" + f.root.path().string()};
    spec.timeout = std::chrono::seconds(120);
    r = run_process(spec);
    INFO("stdout: " << r.out << "stderr: " << r.err);
    CHECK(r.out.starts_with("mine: .\n"));

    r = f.runner({"duel", "block", "idle", "--bots", f.bots.string(), "--cache", f.cache.string(), "--width", "20",
                  "--height", "20", "--generations", "5", "--quiet"});
    CHECK(contains(r.out, "Winner: block by extinction after 1 generation\n"));
}

TEST_CASE("e2e: seats can be drawn from a seed, repeatably") {
    Fixture f;
    json a = f.duel("block", "idle", {"--seats", "random", "--seed", "7"});
    json b = f.duel("block", "idle", {"--seats", "random", "--seed", "7"});
    CHECK(a["seats"] == b["seats"]);
    CHECK(a["seed"] == 7);
    bool seen_swap = false;
    for (int seed = 0; seed < 8 && !seen_swap; ++seed)
        seen_swap = f.duel("block", "idle", {"--seats", "random", "--seed", std::to_string(seed)})["seats"]["block"] == 2;
    CHECK(seen_swap);
}

TEST_CASE("e2e: usage errors exit 2 and name their cause") {
    Fixture f;
    RunOutcome r = f.runner({"duel", "nobody", "idle", "--bots", f.bots.string()});
    CHECK(r.exit_status == 2);
    CHECK(r.err.find("no bot named \"nobody\"") != std::string::npos);
    r = f.runner({"duel", "block", "idle", "--bots", f.bots.string(), "--width", "0"});
    CHECK(r.exit_status == 2);
    CHECK(r.err.find("--width") != std::string::npos);
    r = f.runner({"duel", "block"});
    CHECK(r.exit_status == 2);
    r = f.runner({"frobnicate"});
    CHECK(r.exit_status == 2);
    r = f.runner({"replay", (f.root.path() / "missing.replay").string()});
    CHECK(r.exit_status == 2);
    CHECK(r.err.find("missing.replay") != std::string::npos);
}

TEST_CASE("e2e: check reports valid replies and timings, and fails a broken bot") {
    Fixture f;
    RunOutcome ok = f.runner({"check", "block", "--bots", f.bots.string(), "--cache", f.cache.string(), "--runs", "2"});
    CHECK(ok.exit_status == 0);
    CHECK(ok.out.find("OK: every reply was valid") != std::string::npos);
    CHECK(ok.out.find("move time: median") != std::string::npos);
    CHECK(ok.out.find("10000-generation game takes about") != std::string::npos);
    RunOutcome bad = f.runner({"check", "garbage", "--bots", f.bots.string(), "--runs", "1"});
    CHECK(bad.exit_status == 3);  // the bot fails the check, apart from a failing runner (1)
    CHECK(bad.out.find("FORFEIT not_json") != std::string::npos);
}

TEST_CASE("e2e: duel --html and replay --html write the same viewer page, replay --png draws a generation") {
    Fixture f;
    const fs::path replay = f.root.path() / "game.jsonl", page = f.root.path() / "duel.html";
    f.duel("block", (f.bots / "block.cpp").string(), {"--replay", replay.string(), "--html", page.string(), "--generations", "20"});
    REQUIRE(fs::exists(page));
    const std::string html = read_text(page);
    CHECK(html.find("id=\"game-data\"") != std::string::npos);
    CHECK(html.find("\"counts\":[[4,4],") != std::string::npos);

    const fs::path again = f.root.path() / "again.html", png = f.root.path() / "board.png";
    RunOutcome r = f.runner({"replay", replay.string(), "--html", again.string(), "--png", png.string(),
                             "--generation", "10"});
    INFO("stderr: " << r.err);
    CHECK(r.exit_status == 0);
    CHECK(r.out.find("wrote " + png.string()) != std::string::npos);
    CHECK(read_text(again) == html);
    CHECK(read_text(png).compare(0, 8, "\x89PNG\r\n\x1a\n") == 0);

    r = f.runner({"replay", replay.string(), "--png", png.string(), "--generation", "21"});
    CHECK(r.exit_status == 2);
    CHECK(r.err.find("--generation 21: the game has generations 0..20") != std::string::npos);
    r = f.runner({"replay", replay.string(), "--generation", "3"});
    CHECK(r.exit_status == 2);
    CHECK(r.err.find("--png") != std::string::npos);
}

TEST_CASE("e2e: an --html, --replay or --log path that cannot be written is refused before the game") {
    Fixture f;
    const fs::path folder = f.root.path() / "out-folder";
    fs::create_directories(folder);
    const fs::path file = f.root.path() / "a-file";
    std::ofstream(file) << "not a folder";
    const auto refused = [&](const char* flag, const fs::path& path, const std::string& why) {
        CAPTURE(flag);
        CAPTURE(path);
        // The hanging bot would make a played game take long.
        RunOutcome r = f.runner({"duel", "block", "hang", "--bots", f.bots.string(), "--cache", f.cache.string(),
                                 "--quiet", flag, path.string()});
        CHECK(r.exit_status == 2);
        CHECK(contains(r.err, why));
        CHECK(r.out.empty());
    };
    for (const char* flag : {"--replay", "--html", "--log"}) {
        refused(flag, folder, ": is a folder; give the name of a file to write");
        refused(flag, file / "game.html", file.string() + " is not a folder");
    }
    // Root may write into a read-only folder.
    if (::geteuid() != 0) {
        const fs::path locked = f.root.path() / "locked";
        fs::create_directories(locked);
        fs::permissions(locked, fs::perms::owner_read | fs::perms::owner_exec);
        refused("--replay", locked / "game.json", "is not writable");
    }
    CHECK_FALSE(process_with(f.marker));

    // Folders that do not exist yet are made.
    const fs::path nested = f.root.path() / "new" / "folder" / "game.html";
    RunOutcome r = f.runner({"duel", "block", "idle", "--bots", f.bots.string(), "--cache", f.cache.string(), "--generations", "5",
                  "--html", nested.string()});
    CHECK(r.exit_status == 0);
    CHECK(fs::exists(nested));
}

// Whether a python3 bot runs warm depends on the warm interpreter being there (BotPlayer::warm());
// these hold either way, and check's warm/cold lines are looked at only when it is.
TEST_CASE("e2e: --cold is taken by duel, check and league, and check says how a bot runs") {
    Fixture f;
    // By path: the name "block" may find block.cpp first.
    const std::string block_py = (f.bots / "block.py").string();
    CHECK(f.duel(block_py, "idle", {"--cold"})["winner"] == "block");

    RunOutcome r = f.check(block_py);
    INFO("stdout: " << r.out << "stderr: " << r.err);
    CHECK(r.exit_status == 0);
    const std::string runs = line_starting(r.out, "  runs:     ");
    CHECK((contains(runs, "warm (forked from a python3") || runs == "  runs:     a new process per move"));
    if (contains(runs, "warm")) {
        // block.py answers a board the same way every time: warm and cold agree on every board.
        CHECK(contains(r.out, "warm against cold"));
        CHECK(contains(r.out, "empty board, seat 1: the same reply warm and cold"));
        CHECK_FALSE(contains(r.out, "DIFFERENT"));
    }
    CHECK(contains(r.out, "OK: every reply was valid"));

    r = f.check(block_py, {"--cold"});
    CHECK(r.exit_status == 0);
    CHECK(line_starting(r.out, "  runs:     ") == "  runs:     a new process per move");
    CHECK_FALSE(contains(r.out, "warm against cold"));
    CHECK(line_starting(f.check("persist_py", {"--cold"}).out, "  runs:     ") ==
          "  runs:     one process for the whole game (the persistent protocol)");

    const fs::path league_bots = f.root.path() / "league-bots";
    fs::create_directories(league_bots);
    fs::copy(f.bots / "block.py", league_bots / "block.py");
    fs::copy(f.bots / "idle.sh", league_bots / "idle.sh");
    r = f.runner({"league", league_bots.string(), "--cold", "--no-sandbox", "--results",
                  (f.root.path() / "results").string(), "--cache", f.cache.string(), "--width", "20", "--height",
                  "20", "--generations", "5", "-j", "1", "--quiet", "--format", "json"});
    INFO("league stderr: " << r.err);
    REQUIRE(r.exit_status == 0);
    const json table = json::parse(r.out);
    REQUIRE(table["standings"].size() == 2);
    CHECK(table["standings"][0]["bot"] == "block");
}

TEST_CASE("e2e: a bot.json's \"warm\" is true or false, and anything else is refused naming it") {
    Fixture f;
    const auto manifest_bot = [&](const std::string& name, const std::string& warm) {
        fs::create_directories(f.bots / name);
        fs::copy(f.bots / "block.py", f.bots / name / "bot.py");
        std::ofstream(f.bots / name / "bot.json") << R"({"run": ["python3", "bot.py"], "warm": )" << warm << "}";
    };
    manifest_bot("cold_block", "false");
    CHECK(f.duel("cold_block", "idle")["winner"] == "cold_block");
    RunOutcome r = f.check("cold_block");
    CHECK(r.exit_status == 0);
    CHECK(line_starting(r.out, "  runs:     ") == "  runs:     a new process per move (\"warm\": false in its bot.json)");

    manifest_bot("odd_block", "3");
    r = f.runner({"duel", "odd_block", "idle", "--bots", f.bots.string(), "--cache", f.cache.string()});
    CHECK(r.exit_status == 2);
    CHECK(contains(r.err, "odd_block/bot.json"));
    CHECK(contains(r.err, "\"warm\" is 3, not true or false"));
}

TEST_CASE("e2e: an unknown command or flag is named, with the close one it may have meant") {
    Fixture f;
    RunOutcome r = f.runner({"dual", "block", "idle"});
    CHECK(r.exit_status == 2);
    CHECK(contains(r.err, "unknown command 'dual'; did you mean 'duel'?"));
    r = f.runner({"frobnicate"});
    CHECK(r.exit_status == 2);
    CHECK(contains(r.err, "unknown command 'frobnicate' (runner --help"));
    r = f.runner({"duel", "block", "idle", "--bots", f.bots.string(), "--generation", "10"});
    CHECK(r.exit_status == 2);
    CHECK(contains(r.err, "unknown option --generation for duel; did you mean --generations?"));
}

TEST_CASE("e2e: a bot under --bots may be named with its extension") {
    Fixture f;
    json j = f.duel("block.py", "idle.sh");
    CHECK(j["seats"]["block"] == 1);
    CHECK(j["seats"]["idle"] == 2);
}

TEST_CASE("e2e: a league with fewer than two usable bots says why and makes no results folder") {
    Fixture f;
    const fs::path league_bots = f.root.path() / "few-bots";
    const fs::path results = f.root.path() / "few-results";
    fs::create_directories(league_bots);
    const auto league = [&] {
        return f.runner({"league", league_bots.string(), "--no-sandbox", "--results", results.string(), "--cache",
                         f.cache.string(), "--quiet"});
    };
    RunOutcome r = league();
    CHECK(r.exit_status == 2);
    CHECK(contains(r.err, "a league needs at least two usable bots, and " + league_bots.string() + " has 0"));
    fs::copy(f.bots / "block.py", league_bots / "block.py");
    std::ofstream(league_bots / "notes.xyz") << "not a bot";
    r = league();
    CHECK(r.exit_status == 2);
    CHECK(contains(r.err, "has 1 (block); excluded, for the reasons above: notes.xyz"));
    CHECK(contains(r.err, "league: excluded notes.xyz: cannot tell how to run this file"));
    CHECK_FALSE(fs::exists(results));
}

// A runner asked to stop that is still busy (here with a build that never ends) exits once the
// grace is over, wherever it is, with the status the signal gives (kStopGraceSeconds).
TEST_CASE("e2e: SIGTERM stops a league even while a build hangs") {
    Fixture f;
    const std::string marker = testing::unique_marker(32);
    fs::create_directories(f.bots / "slow_build");
    std::ofstream(f.bots / "slow_build" / "bot.json") << R"({"run": ["./bot"], "build": "sleep )" << marker << R"("})";
    const fs::path results = f.root.path() / "results-sigterm";
    RunOutcome run;
    std::thread league([&] {
        run = f.runner({"league", f.bots.string(), "--cache", (f.root.path() / "cache").string(), "--results",
                        results.string(), "--no-sandbox", "--width", "20", "--height", "20", "--generations", "3"});
    });
    // The build's sleep runs: the runner is in the middle of preparing the bots.
    for (int i = 0; i < 6000 && !process_with(marker); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    const bool building = process_with(marker);
    int runner_pid = 0;
    for (const auto& entry : fs::directory_iterator("/proc")) {
        const std::string cmdline = read_text(entry.path() / "cmdline");
        if (cmdline.starts_with(RUNNER_BIN) && cmdline.find(results.string()) != std::string::npos)
            runner_pid = std::stoi(entry.path().filename().string());
    }
    if (runner_pid > 0) ::kill(runner_pid, SIGTERM);
    league.join();
    CHECK(building);
    REQUIRE(runner_pid > 0);
    INFO("stderr: " << run.err);
    CHECK(run.kind == RunOutcome::Kind::exited);
    CHECK(run.exit_status == 128 + SIGTERM);
    CHECK(contains(run.err, "still busy after the stop was asked for: stopped"));
    // The build's sleep ended with its launcher when the runner did.
    for (int i = 0; i < 500 && process_with(marker); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    CHECK_FALSE(process_with(marker));
}
