// Smaller attacks (issue 14, item 11), each test asserting that the attack's own effect did not
// happen: a replay header that claims more than it holds, control characters in bot names and
// bot output, a NUL byte in a reply, and a newcomer taking a league bot's name.
#include "runner/testing/runner_fixture.hpp"

#include "runner/bots/bot.hpp"
#include "runner/game/game_stats.hpp"
#include "runner/game/protocol.hpp"
#include "runner/game/replay.hpp"
#include "runner/text/terminal_text.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

using namespace gol;
using namespace gol::runner;
using gol::runner::testing::contains;
using gol::runner::testing::read_text;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

void write(const fs::path& p, const std::string& text) {
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
}

}  // namespace

// --- 1. A replay's header against what it holds -------------------------------------------------

namespace {

// A replay of `ticks` ticks on a 20x20 board whose header claims `generations`: both seats place
// a block on tick 0 and nothing after, so neither side ever dies out.
std::string crafted_replay(std::int64_t generations, const std::string& reason, int result_generations,
                           int ticks = 3, const std::string& winner = "null") {
    std::string text = R"({"format":"gol-replay","version":1,"rules":"ppcg2016-1",)"
                       R"("bots":[{"name":"a","seat":1,"hash":""},{"name":"b","seat":2,"hash":""}],)"
                       R"("width":20,"height":20,"generations":)" +
                       std::to_string(generations) + R"(,"seed":1,"time_limit_ms":1000})" + "\n";
    for (int t = 0; t < ticks; ++t)
        text += t == 0 ? R"({"t":0,"moves":[[[2,2],[2,3],[3,2],[3,3]],[[8,2],[8,3],[9,2],[9,3]]]})" "\n"
                       : R"({"t":)" + std::to_string(t) + R"(,"moves":[[],[]]})" + "\n";
    text += R"({"result":{"winner":)" + winner + R"(,"reason":")" + reason + R"(","generations":)" +
            std::to_string(result_generations) + R"(,"cells":[4,4],"forfeits":[0,0]}})" + "\n";
    return text;
}

std::string replay_error(const std::string& text) {
    std::istringstream in(text);
    try {
        resimulate(read_replay(in));
    } catch (const ReplayError& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("small attacks: a replay header is checked against the runner's limits and the ticks it holds") {
    // The attack: 2000000000 generations claimed, 3 ticks held.
    CHECK(contains(replay_error(crafted_replay(2'000'000'000, "generations", 3)),
              "line 1: \"generations\" is 2000000000, not from 1 to 10000000"));
    std::string wide = crafted_replay(10, "generations", 10);
    wide.replace(wide.find("\"width\":20"), 10, "\"width\":5000");
    CHECK(contains(replay_error(wide), "\"width\" is 5000, not from 1 to 4096"));
    // Within the limits, but a game stopped by its limit played all of its generations.
    CHECK(contains(replay_error(crafted_replay(10'000'000, "generations", 3)),
              "reached its generation limit after 3 generations, but the header's limit is 10000000"));
    CHECK(contains(replay_error(crafted_replay(10, "generations", 10, 3)),
              "the result says 10 generations, but the file records 3 ticks"));
    CHECK(contains(replay_error(crafted_replay(5, "generations", 5, 6)), "line 7: more ticks than the header's 5 generations"));
    CHECK(contains(replay_error(crafted_replay(10, "extinction", 3, 3, "7")), "\"winner\" is 7, not 1, 2 or null"));
    std::string off_board = crafted_replay(3, "generations", 3);
    off_board.replace(off_board.find("[2,2]"), 5, "[2,20]");
    CHECK(contains(replay_error(off_board), "line 2: the cell [2, 20] is not on the header's 20x20 board"));
    // A well-formed replay of the same game still reads and reproduces itself.
    std::istringstream fine(crafted_replay(3, "generations", 3));
    const Replay replay = read_replay(fine);
    CHECK(same_result(resimulate(replay), replay.result));
}

TEST_CASE("small attacks: re-simulation stops where the recorded ticks end instead of playing on") {
    // An extinction the moves do not bring about: without its moves the game would go on for
    // 10000000 generations.
    CHECK(contains(replay_error(crafted_replay(10'000'000, "extinction", 3, 3, "1")),
              "the game does not end after its 3 recorded ticks, as the recorded result says: there is no move for "
              "tick 3"));
}

TEST_CASE("small attacks e2e: runner replay rejects a header that claims more than it holds, at once, exit 2") {
    testing::RunnerFixture f;
    struct Crafted {
        const char* name;
        std::string text;
        const char* problem;
    };
    const Crafted files[] = {
        {"claims.jsonl", crafted_replay(2'000'000'000, "generations", 3), "\"generations\" is 2000000000, not from 1"},
        {"limit.jsonl", crafted_replay(10'000'000, "generations", 3), "but the header's limit is 10000000"},
        {"goes_on.jsonl", crafted_replay(10'000'000, "extinction", 3, 3, "1"),
         "the game does not end after its 3 recorded ticks"},
    };
    for (const Crafted& c : files) {
        CAPTURE(c.name);
        const fs::path file = f.root.path() / c.name;
        write(file, c.text);
        const fs::path html = f.root.path() / (std::string(c.name) + ".html");
        const fs::path png = f.root.path() / (std::string(c.name) + ".png");
        for (const std::vector<std::string>& extra :
             {std::vector<std::string>{}, {"--html", html.string()}, {"--png", png.string()},
              {"--png", png.string(), "--generation", "1"}}) {
            std::vector<std::string> args = {"replay", file.string()};
            args.insert(args.end(), extra.begin(), extra.end());
            // Before the fix the first file ran 2000000000 generations: the run outlasted the
            // timeout (or its counts outgrew memory) instead of exiting.
            RunOutcome r = f.runner(args, std::chrono::seconds(60));
            INFO("stderr: " << r.err);
            REQUIRE(r.kind == RunOutcome::Kind::exited);
            CHECK(r.exit_status == 2);
            CHECK(contains(r.err, "replay " + file.string() + ": "));
            CHECK(contains(r.err, c.problem));
            CHECK_FALSE(fs::exists(html));
            CHECK_FALSE(fs::exists(png));
        }
    }
}

// --- 2. Control characters in names and bot output ----------------------------------------------

namespace {

// The offset of the first byte a terminal would obey rather than show (a C0 control other than
// newline, DEL, or a C1 control in UTF-8), or npos. Written apart from terminal_text.cpp, so that
// it checks that code rather than repeats it.
std::size_t first_control(std::string_view text) {
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if ((c < 0x20 && c != '\n') || c == 0x7F) return i;
        if (c == 0xC2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) <= 0x9F &&
            static_cast<unsigned char>(text[i + 1]) >= 0x80)
            return i;
    }
    return std::string_view::npos;
}

#define CHECK_NO_CONTROL(text)                                                              \
    do {                                                                                    \
        const std::string checked_ = (text);                                                \
        INFO(#text ": " << terminal_line(checked_));                                        \
        CHECK(first_control(checked_) == std::string_view::npos);                           \
    } while (false)

}  // namespace

TEST_CASE("small attacks: a BotError's message is safe however it was built; a build's output keeps its lines") {
    CHECK(std::string(BotError("a\x1b[31mb\nc").what()) == "a\\x1b[31mb\nc");
}

TEST_CASE("small attacks: a bot name with control characters is refused, the message escaped") {
    TempDir dir("small-names");
    const fs::path file = dir.path() / "small_\x1b[2Jclear.sh";
    write(file, "echo '[]'\n");
    try {
        single_file_bot(file);
        FAIL("a file name with ESC was taken as a bot's name");
    } catch (const BotError& e) {
        const std::string msg = e.what();
        CHECK(contains(msg, "small_\\x1b[2Jclear.sh"));
        CHECK(contains(msg, "rename the file"));
        CHECK_NO_CONTROL(msg);
    }
    try {
        parse_manifest(R"({"run": ["sh", "bot.sh"], "name": "a\rb\u001b[31m"})", dir.path() / "small_cr");
        FAIL("a manifest name with CR and ESC was taken");
    } catch (const BotError& e) {
        const std::string msg = e.what();
        CHECK(contains(msg, "small_cr/bot.json"));
        CHECK(contains(msg, "a\\x0db\\x1b[31m"));
        CHECK_NO_CONTROL(msg);
    }
    try {
        parse_manifest(R"({"run": ["sh", "bot.sh"]})", dir.path() / "small_\x7f\xff");
        FAIL("a folder name with DEL and a stray byte was taken");
    } catch (const BotError& e) {
        CHECK(contains(e.what(), "small_\\x7f\\xff"));
    }
    CHECK(parse_manifest(R"({"run": ["sh", "bot.sh"], "name": "caf\u00e9"})", dir.path() / "x").name == "caf\xc3\xa9");
}

TEST_CASE("small attacks: a game log shows a bot's forfeit detail and stderr escaped") {
    std::ostringstream out;
    GameLog log(out, {"one", "two"});
    const std::string err = "\x1b[2J\rtick 5 seat 2 (two): forfeit timeout: forged\n";
    MoveReport move;
    move.forfeit = Forfeit{ForfeitKind::not_json, "last read: '\x7f\xc2\x9b'"};
    move.err = err;
    log.on_move(0, 1, move);
    const std::string text = out.str();
    CHECK_NO_CONTROL(text);
    CHECK(contains(text, "last read: '\\x7f\\xc2\\x9b'"));
    CHECK(contains(text, "\\x1b[2J\\x0dtick 5 seat 2 (two): forfeit timeout: forged\n"));
}

namespace {

// Bots whose names or output carry control characters, beside two plain ones.
struct ControlFixture : testing::RunnerFixture {
    const std::string esc_file = "small_\x1b[2Jclear.sh";
    ControlFixture() {
        write(bots / esc_file, "echo '[]'\n");
        write(bots / "small_crname" / "bot.json", R"({"name": "small_\r\u001b[31mred", "run": ["sh", "bot.sh"]})");
        write(bots / "small_crname" / "bot.sh", "echo '[]'\n");
        // stderr that clears the screen and forges a log line; stdout with DEL and a C1 CSI,
        // which nlohmann's error message quotes as they are.
        write(bots / "small_loud.sh",
              "printf '\\033[2J\\033[H\\rtick 9 seat 1 (idle): forfeit timeout: forged\\n' >&2\n"
              "printf '\\177\\302\\233[2J'\n");
        fs::copy(fs::path(TEST_BOTS_DIR) / "idle.sh", bots / "idle.sh");
    }
    std::vector<std::string> small_game() {
        return {"--bots", bots.string(), "--cache", cache.string(), "--width", "20", "--height", "20",
                "--generations", "3"};
    }
};

}  // namespace

TEST_CASE("small attacks e2e: no raw control byte reaches the runner's output from bot names or output") {
    ControlFixture f;
    SUBCASE("duel with a bot whose file name holds ESC [2J: refused, the name escaped") {
        std::vector<std::string> args = {"duel", (f.bots / f.esc_file).string(), "idle"};
        for (const std::string& a : f.small_game()) args.push_back(a);
        RunOutcome r = f.runner(args);
        CHECK(r.exit_status == 2);
        CHECK(contains(r.err, "small_\\x1b[2Jclear.sh"));
        CHECK_NO_CONTROL(r.out);
        CHECK_NO_CONTROL(r.err);
    }
    SUBCASE("duel with a manifest name holding CR and ESC: refused, the name escaped") {
        std::vector<std::string> args = {"duel", (f.bots / "small_crname").string(), "idle"};
        for (const std::string& a : f.small_game()) args.push_back(a);
        RunOutcome r = f.runner(args);
        CHECK(r.exit_status == 2);
        CHECK(contains(r.err, "small_\\x0d\\x1b[31mred"));
        CHECK_NO_CONTROL(r.out);
        CHECK_NO_CONTROL(r.err);
    }
    SUBCASE("duel summary and --log show a loud bot's output escaped") {
        const fs::path log = f.root.path() / "duel.log";
        std::vector<std::string> args = {"duel", "small_loud", "idle", "--log", log.string()};
        for (const std::string& a : f.small_game()) args.push_back(a);
        RunOutcome r = f.runner(args);
        INFO("stderr: " << r.err);
        REQUIRE(r.exit_status == 0);
        CHECK(contains(r.out, "last forfeit, at tick "));
        CHECK(contains(r.out, ": not_json: "));
        CHECK(contains(r.out, "\\x7f"));
        CHECK_NO_CONTROL(r.out);
        CHECK_NO_CONTROL(r.err);
        const std::string text = read_text(log);
        CHECK(contains(text, "\\x1b[2J\\x1b[H\\x0dtick 9 seat 1 (idle): forfeit timeout: forged"));
        CHECK_NO_CONTROL(text);
    }
    SUBCASE("league: both named bots excluded, the loud one's logs escaped, every output clean") {
        const fs::path results = f.root.path() / "results";
        RunOutcome r = f.runner({"league", f.bots.string(), "--results", results.string(), "--cache",
                                 f.cache.string(), "--width", "20", "--height", "20", "--generations", "3", "-j", "1",
                                 "--format", "text", "--no-sandbox"});
        INFO("stderr: " << r.err);
        REQUIRE(r.exit_status == 0);
        CHECK(contains(r.out, "excluded: small_\\x1b[2Jclear.sh: "));
        CHECK(contains(r.out, "excluded: small_crname: "));
        CHECK(contains(r.out, "small_loud"));
        CHECK_NO_CONTROL(r.out);
        CHECK_NO_CONTROL(r.err);
        int logs = 0;
        for (const auto& entry : fs::directory_iterator(results / "logs")) {
            CAPTURE(entry.path());
            CHECK_NO_CONTROL(read_text(entry.path()));
            logs += contains(read_text(entry.path()), "\\x1b[2J\\x1b[H\\x0dtick 9");
        }
        CHECK(logs == 2);  // small_loud against idle, once in each seat
    }
}

// --- 3. A NUL byte in a reply --------------------------------------------------------------------

TEST_CASE("small attacks: a reply holding a NUL byte anywhere is not JSON, nothing placed") {
    using namespace std::string_view_literals;
    // The attack: nlohmann's lexer stops at a NUL and accepts the reply before it.
    CHECK(nlohmann::json::accept("[[1,2]]\0garbage"sv));
    for (std::string_view reply : {"[[1,2]]\0garbage"sv, "[[1,2]]\0"sv, "\0[[1,2]]"sv, "[[1,\0 2]]"sv, "\0"sv}) {
        CAPTURE(terminal_line(reply));
        Move r = parse_reply(reply);
        REQUIRE_FALSE(r.ok());
        CHECK(r.cells.empty());
        CHECK(r.forfeit->kind == ForfeitKind::not_json);
        CHECK(contains(r.forfeit->detail, "NUL byte at offset " + std::to_string(reply.find('\0'))));
    }
    CHECK(parse_reply("[[1,2]]\n"sv).ok());
}

// --- 4. A newcomer taking a league bot's name -----------------------------------------------------

namespace {

struct TwinFixture : testing::RunnerFixture {
    TwinFixture() {
        add_twin("small_orig", "echo '[[1,1],[1,2],[2,1],[2,2]]'\n");
        fs::copy(fs::path(TEST_BOTS_DIR) / "idle.sh", bots / "idle.sh");
        write(bots / "small_other.sh", "echo '[[10,10],[10,11],[11,10],[11,11]]'\n");
    }
    // A folder bot named small_twin by its manifest.
    void add_twin(const std::string& folder, const std::string& script) {
        write(bots / folder / "bot.json", R"({"name": "small_twin", "run": ["sh", "bot.sh"]})");
        write(bots / folder / "bot.sh", script);
    }
    json league(const std::string& results) {
        RunOutcome r = runner({"league", bots.string(), "--results", (root.path() / results).string(), "--cache",
                               cache.string(), "--width", "20", "--height", "20", "--generations", "10", "-j", "1",
                               "--format", "json", "--no-sandbox"});
        INFO("stderr: " << r.err);
        REQUIRE(r.kind == RunOutcome::Kind::exited);
        REQUIRE(r.exit_status == 0);
        return json::parse(r.out);
    }
};

json standing(const json& table, const std::string& bot) {
    for (const json& r : table["standings"])
        if (r["bot"] == bot) return r;
    return json();
}

}  // namespace

TEST_CASE("small attacks e2e: a newcomer reusing a name is excluded and the league goes on") {
    TwinFixture f;
    const json first = f.league("results");
    REQUIRE(first["games"]["total"] == 6);
    CHECK(standing(first, "small_twin")["played"] == 4);
    const json index = json::parse(read_text(f.root.path() / "results" / "league.json"));
    CHECK(index["paths"]["small_twin"] == fs::absolute(f.bots / "small_orig").lexically_normal().string());

    // Discovered first (small_copy sorts before small_orig), yet the newcomer.
    f.add_twin("small_copy", "echo '[]'\n");
    const json again = f.league("results");
    CHECK(again["games"]["played"] == 0);
    CHECK(again["games"]["reused"] == 6);
    CHECK(again["standings"] == first["standings"]);
    REQUIRE(again["excluded"].size() == 1);
    CHECK(again["excluded"][0]["bot"] == "small_copy");
    const std::string reason = again["excluded"][0]["reason"];
    CHECK(reason.starts_with("named \"small_twin\" like " + (f.bots / "small_orig").string() +
                             ", which has played under that name"));

    SUBCASE("a store where none of them played: all of them are excluded, the rest play") {
        const json fresh = f.league("fresh");
        CHECK(fresh["games"]["total"] == 2);
        CHECK(standing(fresh, "small_twin").is_null());
        REQUIRE(fresh["excluded"].size() == 2);
        for (const json& e : fresh["excluded"]) {
            const std::string why = e["reason"];
            CHECK(contains(why, "none of them has played under that name"));
            // The other twin's path; its own is the line's name.
            const std::string other = e["bot"] == "small_copy" ? "small_orig" : "small_copy";
            CHECK(contains(why, "named \"small_twin\" like " + (f.bots / other).string() + ", and none"));
        }
    }
    SUBCASE("an index written before paths were kept: it still loads, and neither twin is taken as known") {
        const fs::path file = f.root.path() / "results" / "league.json";
        json old = json::parse(read_text(file));
        old.erase("paths");
        write(file, old.dump(2));
        const json table = f.league("results");
        CHECK(table["games"]["played"] == 0);
        CHECK(table["excluded"].size() == 2);
    }
}
