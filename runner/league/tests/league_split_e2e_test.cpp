// End to end: a league split into single games, as a Slurm job array or GNU parallel runs it:
// `runner league --plan` lists the games still to play, `runner league --game INDEX|KEY` plays
// one, and a plain league run afterwards writes the table and pages without playing.
#include "runner/testing/runner_fixture.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <thread>

using namespace gol::runner;
using gol::runner::testing::contains;
using gol::runner::testing::read_text;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

// The leaderboard page without the standings' time cells (the last four of each row), which
// differ between two plays of the same games.
std::string without_time_cells(const std::string& page) {
    const std::size_t from = page.find("id=\"standings\""), to = page.find("</table>", from);
    REQUIRE(to != std::string::npos);
    const std::regex times("(<td>[^<]*</td>){4}</tr>");
    // And without the heading's name (the results folder's) and the time the page was written.
    const std::regex heading("<title>[^<]*</title>|<h1 id=\"tournament\">[^<]*</h1>|<p id=\"written\">[^<]*</p>");
    return std::regex_replace(page.substr(0, from), heading, "") +
           std::regex_replace(page.substr(from, to - from), times, "</tr>") + page.substr(to);
}

// Three quick deterministic bots (block beats the passive two, which draw): 6 games. The
// tournament file holds the settings, `--results` picks the store.
struct SplitFixture : testing::RunnerFixture {
    fs::path tournament = root.path() / "cup.json";

    SplitFixture() {
        add_test_bots({"block.py", "idle.sh", "nap.sh"});
        std::ofstream(tournament) << R"({"bots": "bots", "width": 20, "height": 20, "generations": 10})";
    }

    std::vector<std::string> args(const std::string& results, std::vector<std::string> extra) const {
        std::vector<std::string> a = {"league", "--tournament", tournament.string(), "--results",
                                      (root.path() / results).string(), "--cache", cache.string(), "--no-sandbox",
                                      "--time-limit", "60000"};
        a.insert(a.end(), extra.begin(), extra.end());
        return a;
    }

    RunOutcome run(const std::string& results, std::vector<std::string> extra) {
        return runner(args(results, std::move(extra)));
    }

    // The plan's lines: the games to play, then the totals.
    std::vector<json> plan(const std::string& results) {
        RunOutcome r = run(results, {"--plan"});
        INFO("stderr: " << r.err);
        REQUIRE(r.exit_status == 0);
        std::vector<json> lines;
        std::istringstream in(r.out);
        for (std::string line; std::getline(in, line);) lines.push_back(json::parse(line));
        return lines;
    }

    int game(const std::string& results, const std::string& which) {
        RunOutcome r = run(results, {"--game", which, "--quiet"});
        INFO("--game " << which << " stderr: " << r.err);
        CHECK(r.kind == RunOutcome::Kind::exited);
        return r.exit_status;
    }

    // The standings, but for the time per move, which differs between two plays of the same games.
    json table(const std::string& results) {
        RunOutcome r = runner({"table", "--results", (root.path() / results).string(), "--format", "json"});
        REQUIRE(r.exit_status == 0);
        return testing::without_times(json::parse(r.out)["standings"]);
    }

    bool stored(const std::string& results, const std::string& key) const {
        return fs::exists(root.path() / results / "games" / (key + ".json"));
    }
};

// A plan's totals line without its estimate, which depends on the machine.
json totals(json line) {
    CHECK(line.contains("estimate_s"));
    CHECK(line["assumed"].is_array());
    line.erase("estimate_s");
    line.erase("assumed");
    return line;
}

}  // namespace

TEST_CASE("league split e2e: --plan lists the games not stored, by index and key, then the totals") {
    SplitFixture f;
    std::vector<json> plan = f.plan("split");
    REQUIRE(plan.size() == 7);
    CHECK(totals(plan.back()) == json{{"games", 6}, {"stored", 0}, {"to_play", 6}});
    for (std::size_t i = 0; i < 6; ++i) {
        CAPTURE(i);
        CHECK(plan[i]["index"] == i);
        CHECK(plan[i]["key"].get<std::string>().size() == 64);
        CHECK(plan[i]["game"] == i % 2);
        // Nothing stored: both bots at the whole time limit, every generation.
        CHECK(plan[i]["estimate_s"] == 1200);
    }
    CHECK(plan[0]["seat1"] == "block");
    CHECK(plan[0]["seat2"] == "idle");
    CHECK(plan[1]["seat1"] == "idle");
    // Written as a league writes it before playing; nothing played.
    CHECK(fs::exists(f.root.path() / "split" / "league.json"));
    CHECK(!fs::exists(f.root.path() / "split" / "leaderboard.html"));
    CHECK(fs::is_empty(f.root.path() / "split" / "games"));

    CHECK(f.game("split", "3") == 0);
    CHECK(f.game("split", plan[4]["key"]) == 0);
    std::vector<json> later = f.plan("split");
    REQUIRE(later.size() == 5);
    CHECK(totals(later.back()) == json{{"games", 6}, {"stored", 2}, {"to_play", 4}});
    // The same games; their estimates now count the moves stored.
    const auto game = [](json line) {
        line.erase("estimate_s");
        return line;
    };
    CHECK(game(later[0]) == game(plan[0]));
    CHECK(game(later[2]) == game(plan[2]));
    CHECK(game(later[3]) == game(plan[5]));

    RunOutcome whole = f.run("split", {"--plan", "--format", "json"});
    REQUIRE(whole.exit_status == 0);
    const json one = json::parse(whole.out);
    CHECK(one["games"] == 6);
    CHECK(one["stored"] == 2);
    CHECK(one["to_play"] == 4);
    REQUIRE(one["plan"].size() == 4);
    for (std::size_t i = 0; i < 4; ++i) CHECK(one["plan"][i] == later[i]);
}

TEST_CASE("league split e2e: every game by --game, one by one and two at once, then a plain league: a -j 2 league's "
          "table and page") {
    SplitFixture f;
    RunOutcome reference = f.run("reference", {"-j", "2", "--quiet"});
    REQUIRE(reference.exit_status == 0);

    const std::vector<json> plan = f.plan("split");
    REQUIRE(plan.size() == 7);
    CHECK(f.game("split", "0") == 0);
    CHECK(f.game("split", plan[1]["key"]) == 0);
    for (std::size_t i = 2; i < 6; i += 2) {
        // Two processes share the store at once, as tasks of a job array do.
        int first = -1, second = -1;
        std::thread a([&] { first = f.game("split", std::to_string(i)); });
        std::thread b([&] { second = f.game("split", std::to_string(i + 1)); });
        a.join();
        b.join();
        CHECK(first == 0);
        CHECK(second == 0);
    }
    for (const json& g : plan)
        if (g.contains("key")) CHECK(f.stored("split", g["key"]));
    CHECK(totals(f.plan("split").back()) == json{{"games", 6}, {"stored", 6}, {"to_play", 0}});
    // Each game's viewer page comes with it; the leaderboard page is the league run's.
    CHECK(fs::exists(f.root.path() / "split" / "viewers" / (plan[0]["key"].get<std::string>() + ".html")));
    CHECK(!fs::exists(f.root.path() / "split" / "leaderboard.html"));

    // A stored game is not played again.
    const fs::path record = f.root.path() / "split" / "games" / (plan[2]["key"].get<std::string>() + ".json");
    const auto written = fs::last_write_time(record);
    RunOutcome again = f.run("split", {"--game", "2"});
    CHECK(again.exit_status == 0);
    CHECK(contains(again.err, "already stored"));
    CHECK(fs::last_write_time(record) == written);

    RunOutcome final_run = f.run("split", {"--format", "json", "--quiet"});
    REQUIRE(final_run.exit_status == 0);
    const json final_table = json::parse(final_run.out);
    CHECK(final_table["games"]["played"] == 0);
    CHECK(final_table["games"]["reused"] == 6);
    CHECK(f.table("split") == f.table("reference"));
    CHECK(without_time_cells(read_text(f.root.path() / "split" / "leaderboard.html")) ==
          without_time_cells(read_text(f.root.path() / "reference" / "leaderboard.html")));
}

TEST_CASE("league split e2e: a bad --game exits 2 naming it, and plays nothing") {
    SplitFixture f;
    const std::vector<json> plan = f.plan("split");
    REQUIRE(plan.size() == 7);
    struct Case {
        std::vector<std::string> extra;
        std::string says;
    };
    const std::string unknown(64, 'a');
    for (const Case& c : std::vector<Case>{
             {{"--game", "6"}, "--game 6: out of range; the league has 6 games"},
             {{"--game", unknown}, "--game " + unknown + ": no game of this league has that key"},
             {{"--game", "x1"}, "--game x1: neither a game's index"},
             {{"--game", ""}, "--game : neither a game's index"},
             {{"--game", "-1"}, "--game -1: neither a game's index"},
             {{"--plan", "--game", "0"}, "--plan excludes --game"},
         }) {
        RunOutcome r = f.run("split", c.extra);
        CAPTURE(c.says);
        INFO("stderr: " << r.err);
        CHECK(r.exit_status == 2);
        CHECK(contains(r.err, c.says));
    }
    // A bot excluded where the game runs, which the plan has: an index would mean another game.
    fs::remove(f.bots / "nap.sh");
    fs::create_directories(f.bots / "nap");
    std::ofstream(f.bots / "nap" / "bot.json") << "{broken";
    RunOutcome r = f.run("split", {"--game", "0"});
    INFO("stderr: " << r.err);
    CHECK(r.exit_status == 2);
    CHECK(contains(r.err, "plans other games than this run schedules"));
    CHECK(contains(r.err, "nap is excluded here"));
    CHECK(fs::is_empty(f.root.path() / "split" / "games"));
}

TEST_CASE("league split e2e: a --game killed mid-game leaves no result: the plan still lists it, and it plays again") {
    SplitFixture f;
    // A passive bot that, until the gate opens, says it started and waits: the game cannot end.
    const fs::path started = f.root.path() / "started", gate = f.root.path() / "gate-open";
    fs::remove(f.bots / "nap.sh");
    fs::remove(f.bots / "idle.sh");
    std::ofstream(f.bots / "wait.sh") << "if [ ! -e '" << gate.string() << "' ]; then\n  touch '" << started.string()
                                      << "'\n  while [ ! -e '" << gate.string()
                                      << "' ]; do sleep 0.02; done\nfi\necho '[]'\n";
    const std::vector<json> plan = f.plan("split");
    REQUIRE(plan.size() == 3);
    REQUIRE(plan[0]["seat2"] == "wait");

    ProcessRegistry registry;
    RunOutcome killed;
    std::thread game([&] {
        killed = f.runner(f.args("split", {"--game", "0", "--quiet"}), std::chrono::seconds(120), &registry);
    });
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (!fs::exists(started) && std::chrono::steady_clock::now() < give_up)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    registry.kill_all();
    game.join();
    std::ofstream(gate) << "open";
    REQUIRE(killed.kind == RunOutcome::Kind::signaled);
    CHECK(killed.signal == SIGKILL);
    CHECK(!f.stored("split", plan[0]["key"]));
    CHECK(f.plan("split")[0] == plan[0]);

    CHECK(f.game("split", "0") == 0);
    CHECK(f.stored("split", plan[0]["key"]));
    CHECK(totals(f.plan("split").back()) == json{{"games", 2}, {"stored", 1}, {"to_play", 1}});
}
