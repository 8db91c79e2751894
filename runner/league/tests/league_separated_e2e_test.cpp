// End to end: `runner league --until-separated BUDGET` adds game pairs to adjacent bots whose
// order is uncertain, recognises deterministic pairs by asking their bots again, and keeps its
// added games in the store.
#include "runner/testing/runner_fixture.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <set>

using namespace gol::runner;
using gol::runner::testing::contains;
using gol::runner::testing::read_text;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

// Five random cells a turn, seeded by the game's GOL_SEED, the tick and the seat, as
// bots/scatter.py: the same game again is the same, another game differs.
constexpr const char* kRandomBot = R"py(import json, os, random, sys
s = json.loads(sys.argv[1])
rng = random.Random((int(os.environ.get("GOL_SEED", "0")) << 32) + s["tick_id"] * 2 + s["bot_id"])
cells = []
while len(cells) < 5:
    c = [rng.randrange(s["y_size"]), rng.randrange(s["x_size"])]
    if f"({c[0]},{c[1]})" not in s["board"] and c not in cells:
        cells.append(c)
print(json.dumps(cells))
)py";

// One cell a turn, where the game's GOL_SEED puts it: alone, it dies, so every game is a draw
// (by extinction), and no two games, nor a board asked again with another seed, repeat it.
constexpr const char* kSeededCell = R"py(import json, os
seed = int(os.environ["GOL_SEED"])
print(json.dumps([[seed % 400 // 20, seed % 20]]))
)py";

// Quick games (20x20, 5 generations) of the bots the test writes.
struct SeparatedFixture : testing::RunnerFixture {
    RunOutcome run(std::vector<std::string> extra) {
        std::vector<std::string> a = {"league", bots.string(), "--results", (root.path() / "results").string(),
                                      "--cache", cache.string(), "--no-sandbox", "--time-limit", "60000",
                                      "--width", "20", "--height", "20", "--generations", "5", "-j", "2",
                                      "--quiet", "--format", "json"};
        a.insert(a.end(), extra.begin(), extra.end());
        RunOutcome r = runner(a);
        INFO("stderr: " << r.err);
        REQUIRE(r.kind == RunOutcome::Kind::exited);
        REQUIRE(r.exit_status == 0);
        return r;
    }

    json index() const { return json::parse(read_text(root.path() / "results" / "league.json")); }
};

int played(const RunOutcome& r) { return json::parse(r.out).at("games").at("played").get<int>(); }

}  // namespace

TEST_CASE("until separated: two passers, asked again, pass again, so they are deterministic and get no games") {
    SeparatedFixture f;
    fs::create_directories(f.bots);
    for (const char* bot : {"pass1.sh", "pass2.sh"}) std::ofstream(f.bots / bot) << "echo '[]'\n";
    const RunOutcome first = f.run({"--until-separated", "40"});
    INFO("stderr: " << first.err);
    // 2 draws: a likelihood of superiority of 50%, but each bot shown again its first game's
    // boards (5 generations: 5 boards) moves as it did.
    CHECK(contains(first.err, "pass1, shown again its first 5 boards of game "));
    CHECK(contains(first.err, "pass2, shown again its first 5 boards of game "));
    CHECK(contains(first.err, "with another seed, made the same moves"));
    CHECK(contains(first.err, "pass1 vs pass2 is deterministic: both bots, shown again the boards of a game with "
                              "another seed, made the same moves; no more games for it"));
    CHECK(contains(first.err, "added 0 games; every adjacent pair is separated or deterministic"));
    CHECK(!contains(first.err, "round 1"));
    CHECK(played(first) == 2);
    CHECK(!f.index().contains("added"));
    CHECK(fs::is_directory(f.root.path() / "results" / "repeats"));

    // The same run again decides the same from the store, asking neither bot again.
    const RunOutcome again = f.run({"--until-separated", "40"});
    CHECK(played(again) == 0);
    CHECK(!contains(again.err, "shown again its first"));
    CHECK(contains(again.err, "pass1 vs pass2 is deterministic"));
}

TEST_CASE("until separated: bots placing a cell by their seed draw every game and get rounds until the budget is spent") {
    SeparatedFixture f;
    fs::create_directories(f.bots);
    for (const char* bot : {"cell1.py", "cell2.py"}) std::ofstream(f.bots / bot) << kSeededCell;
    const RunOutcome first = f.run({"--until-separated", "4"});
    INFO("stderr: " << first.err);
    // Its games end at their first generation (both cells die): one board to show again.
    CHECK(contains(first.err, "cell1, shown again its first board of game "));
    CHECK(contains(first.err, "with another seed, did not: at tick 0, other cells than in the game"));
    CHECK(contains(first.err, "round 1: 2 more games each for cell1 vs cell2 (LOS 50.0%); 2 of 4 left"));
    CHECK(contains(first.err, "added 4 games (cell1 vs cell2 4); budget spent; still uncertain: cell1 vs cell2"));
    CHECK(!contains(first.err, "deterministic"));
    CHECK(played(first) == 6);
    CHECK(f.index().at("games").size() == 6);

    // The same run again decides the same from the stored games, and plays nothing.
    const RunOutcome again = f.run({"--until-separated", "4"});
    CHECK(played(again) == 0);
    CHECK(json::parse(again.out).at("games").at("total") == 6);
    CHECK(contains(again.err, "added 4 games (cell1 vs cell2 4)"));

    // `runner table` counts the added games.
    const RunOutcome table = f.runner({"table", "--results", (f.root.path() / "results").string(), "--format", "json"});
    CHECK(table.exit_status == 0);
    CHECK(json::parse(table.out).at("games").at("total") == 6);
}

TEST_CASE("until separated: two bots playing at random get rounds until separated or the budget is spent") {
    SeparatedFixture f;
    fs::create_directories(f.bots);
    for (const char* bot : {"rand1.py", "rand2.py"}) std::ofstream(f.bots / bot) << kRandomBot;
    const RunOutcome r = f.run({"--until-separated", "12"});
    INFO("stderr: " << r.err);
    CHECK(!contains(r.err, "deterministic"));
    CHECK(contains(r.err, "round 2: 2 more games each for"));
    const json index = f.index();
    const int added = static_cast<int>(index.at("added").size());
    CHECK(added >= 2);
    CHECK(added <= 6);
    CHECK(played(r) == 2 + 2 * added);
    // The added games are their pair's games 2, 3, ...: each key once, none the schedule's.
    std::set<std::string> keys;
    for (const json& k : index.at("games")) keys.insert(k.get<std::string>());
    CHECK(keys.size() == static_cast<std::size_t>(2 + 2 * added));
    CHECK((contains(r.err, "budget spent; still uncertain: ") || contains(r.err, "every adjacent pair is separated")));
}

TEST_CASE("until separated: without it a re-run leaves the added games out of the table, stored for another run") {
    SeparatedFixture f;
    fs::create_directories(f.bots);
    for (const char* bot : {"cell1.py", "cell2.py"}) std::ofstream(f.bots / bot) << kSeededCell;
    f.run({"--until-separated", "4"});
    const RunOutcome plain = f.run({});
    CHECK(played(plain) == 0);
    CHECK(json::parse(plain.out).at("games").at("total") == 2);
    CHECK(!f.index().contains("added"));
    const RunOutcome again = f.run({"--until-separated", "4"});
    CHECK(played(again) == 0);
    CHECK(json::parse(again.out).at("games").at("total") == 6);
    // A plan with added games still lets one game of its schedule be played on its own.
    const RunOutcome one = f.runner({"league", f.bots.string(), "--results", (f.root.path() / "results").string(),
                                     "--cache", f.cache.string(), "--no-sandbox", "--time-limit", "60000", "--width",
                                     "20", "--height", "20", "--generations", "5", "--game", "0"});
    INFO("stderr: " << one.err);
    CHECK(one.exit_status == 0);
    CHECK(contains(one.err, "already stored"));
}

TEST_CASE("until separated: --rerun BOT forgets the games added for it too, and what it did when asked again") {
    SeparatedFixture f;
    fs::create_directories(f.bots);
    for (const char* bot : {"cell1.py", "cell2.py"}) std::ofstream(f.bots / bot) << kSeededCell;
    f.run({"--until-separated", "4"});
    const RunOutcome rerun = f.run({"--until-separated", "4", "--rerun", "cell1"});
    INFO("stderr: " << rerun.err);
    // 6 games of 4 files each, and cell1's check.
    CHECK(contains(rerun.err, "--rerun cell1: forgot 6 stored games (25 files in games/, replays/, logs/, viewers/ "
                              "and repeats/ of "));
    CHECK(contains(rerun.err, "cell1, shown again its first board"));
    CHECK(!contains(rerun.err, "cell2, shown again"));
    CHECK(played(rerun) == 6);
}
