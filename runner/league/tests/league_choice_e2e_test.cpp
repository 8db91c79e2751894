// End to end: the seed each game gives its bots (GOL_SEED), a gauntlet of one bot against the
// rest (--gauntlet), and games forgotten and played again (--rerun).
#include "runner/testing/runner_fixture.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

using namespace gol::runner;
using gol::runner::testing::contains;
using gol::runner::testing::read_text;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

// Deterministic bots, quick games (20x20, 5 generations). `seeded` adds two passive bots that
// write "seed NAME VALUE" to stderr on every move, VALUE their GOL_SEED.
struct ChoiceFixture : testing::RunnerFixture {
    explicit ChoiceFixture(bool seeded = false) {
        add_test_bots({"block.py", "idle.sh", "nap.sh"});
        if (!seeded) return;
        for (const char* name : {"say1", "say2"})
            std::ofstream(bots / (std::string(name) + ".sh")) << "echo \"seed " << name << " $GOL_SEED\" >&2\necho '[]'\n";
    }

    RunOutcome run(const std::string& results, std::vector<std::string> extra) {
        std::vector<std::string> a = {"league", bots.string(), "--results", (root.path() / results).string(),
                                      "--cache", cache.string(), "--no-sandbox", "--time-limit", "60000",
                                      "--width", "20", "--height", "20", "--generations", "5", "-j", "1",
                                      "--quiet", "--format", "json"};
        a.insert(a.end(), extra.begin(), extra.end());
        return runner(a);
    }

    json league(const std::string& results, std::vector<std::string> extra = {}) {
        RunOutcome r = run(results, std::move(extra));
        INFO("stderr: " << r.err);
        REQUIRE(r.kind == RunOutcome::Kind::exited);
        REQUIRE(r.exit_status == 0);
        return json::parse(r.out);
    }

    // The keys of the games stored in `results`.
    std::set<std::string> keys(const std::string& results) const {
        std::set<std::string> out;
        for (const auto& e : fs::directory_iterator(root.path() / results / "games"))
            if (e.path().extension() == ".json") out.insert(e.path().stem().string());
        return out;
    }

    // Each stored game's GOL_SEED lines, by key: "NAME VALUE", one per move of a seeded bot.
    std::map<std::string, std::vector<std::string>> seeds(const std::string& results) const {
        std::map<std::string, std::vector<std::string>> out;
        for (const std::string& key : keys(results)) {
            std::istringstream log(read_text(root.path() / results / "logs" / (key + ".log")));
            for (std::string line; std::getline(log, line);)
                if (line.starts_with("  | seed ")) out[key].push_back(line.substr(9));
        }
        return out;
    }
};

// The one GOL_SEED value of a game's lines, checking that every move of both bots saw it.
std::string game_seed(const std::vector<std::string>& lines) {
    REQUIRE(!lines.empty());
    const std::string value = lines[0].substr(lines[0].find(' ') + 1);
    CHECK(value.find_first_not_of("0123456789") == std::string::npos);
    for (const std::string& line : lines) CHECK(line.substr(line.find(' ') + 1) == value);
    return value;
}

}  // namespace

TEST_CASE("league choice e2e: GOL_SEED is one value per game for both bots, another in each game, the same for the "
          "same league seed") {
    ChoiceFixture f(true);
    f.league("one");
    f.league("two");
    f.league("other", {"--seed", "2"});
    const auto one = f.seeds("one"), two = f.seeds("two"), other = f.seeds("other");
    // say1 and say2 play each other 2 games, and each plays the 3 others 2 games: 14 games.
    REQUIRE(one.size() == 14);
    std::set<std::string> values;
    int both = 0;  // games in which both bots said their seed
    for (const auto& [key, lines] : one) {
        CAPTURE(key);
        const std::string value = game_seed(lines);
        values.insert(value);
        const auto said = [&](const char* name) {
            return std::any_of(lines.begin(), lines.end(), [&](const std::string& l) { return l.starts_with(name); });
        };
        both += said("say1 ") && said("say2 ");
        CHECK(game_seed(two.at(key)) == value);
    }
    CHECK(both == 2);
    CHECK(values.size() == one.size());
    // Another league seed: other games (their keys hold the seed) with other seeds.
    for (const auto& [key, lines] : other) {
        CHECK(!one.contains(key));
        CHECK(!values.contains(game_seed(lines)));
    }
}

TEST_CASE("league choice e2e: a duel gives both bots its --seed as GOL_SEED") {
    ChoiceFixture f(true);
    const fs::path log = f.root.path() / "duel.log";
    f.duel("say1", "say2", {"--seed", "77", "--log", log.string()});
    const std::string text = read_text(log);
    CHECK(contains(text, "seed say1 77\n"));
    CHECK(contains(text, "seed say2 77\n"));
}

TEST_CASE("league choice e2e: --gauntlet plays one bot's pairs only, under the full league's keys") {
    ChoiceFixture f;
    json gauntlet = f.league("gauntlet", {"--gauntlet", "idle"});
    // The table is the full league's: its 6 games, of which the gauntlet stored 4, and it says so.
    CHECK(gauntlet["games"]["total"] == 6);
    CHECK(gauntlet["games"]["played"] == 4);
    CHECK(gauntlet["standings"].size() == 3);
    REQUIRE(gauntlet["notes"].size() == 2);
    CHECK(gauntlet["notes"][0] == "a gauntlet of idle: this run played its games only; the table counts every stored "
                                  "game of the full league, 4 of 6, so idle stands among the full standings");
    CHECK(gauntlet["notes"][1].get<std::string>().starts_with("the bots played from 2 to 4 games"));
    const std::set<std::string> idle_games = f.keys("gauntlet");
    CHECK(idle_games.size() == 4);
    // `runner table` schedules the full league's games again from the index.
    RunOutcome table = f.runner({"table", "--results", (f.root.path() / "gauntlet").string(), "--format", "json"});
    REQUIRE(table.exit_status == 0);
    CHECK(json::parse(table.out)["games"]["total"] == 6);

    json full = f.league("full");
    CHECK(full["games"]["total"] == 6);
    const std::set<std::string> all = f.keys("full");
    for (const std::string& key : idle_games) CHECK(all.contains(key));

    // On the full league's store, the gauntlet's games are all stored, and its plan is empty.
    json again = f.league("full", {"--gauntlet", "idle"});
    CHECK(again["games"]["played"] == 0);
    // Its place among the full standings, in the same run: every bot with all its games.
    CHECK(again["games"]["reused"] == 6);
    for (const json& row : again["standings"]) CHECK(row["played"] == 4);
    CHECK(again["standings"] == full["standings"]);
    CHECK(again["notes"].size() == 1);  // the gauntlet's; the counts are equal
    RunOutcome plan = f.run("fresh", {"--gauntlet", "block", "--plan"});
    REQUIRE(plan.exit_status == 0);
    CHECK(json::parse(plan.out)["games"] == 4);
    CHECK(json::parse(plan.out)["to_play"] == 4);

    RunOutcome bad = f.run("full", {"--gauntlet", "nobody"});
    CHECK(bad.exit_status == 2);
    CHECK(contains(bad.err, "--gauntlet nobody: no bot of the league has that name"));
}

TEST_CASE("league choice e2e: --rerun forgets a game or a bot's games, says which files, and plays them again") {
    ChoiceFixture f;
    f.league("results");
    const std::set<std::string> before = f.keys("results");
    REQUIRE(before.size() == 6);

    RunOutcome bot = f.run("results", {"--rerun", "nap"});
    INFO("stderr: " << bot.err);
    REQUIRE(bot.exit_status == 0);
    json t = json::parse(bot.out);
    CHECK(t["games"]["played"] == 4);
    CHECK(t["games"]["reused"] == 2);
    CHECK(contains(bot.err, "league: --rerun nap: forgot 4 stored games (16 files in games/, replays/, logs/ and "
                            "viewers/ of " + (f.root.path() / "results").string() + ")\n"));
    CHECK_FALSE(contains(bot.err, "removed"));  // a summary, not a line a file
    CHECK(f.keys("results") == before);

    const std::string key = *before.begin();
    RunOutcome game = f.run("results", {"--rerun", key});
    REQUIRE(game.exit_status == 0);
    CHECK(json::parse(game.out)["games"]["played"] == 1);
    CHECK(contains(game.err, "--rerun " + key + ": forgot 1 stored game (4 files in games/"));

    RunOutcome no_bot = f.run("results", {"--rerun", "nobody"});
    CHECK(no_bot.exit_status == 2);
    CHECK(contains(no_bot.err, "--rerun nobody: no bot of the league has that name (it has "));
    RunOutcome typo = f.run("results", {"--rerun", "nop"});
    CHECK(typo.exit_status == 2);
    CHECK(contains(typo.err, "--rerun nop: no bot of the league has that name; did you mean nap? (it has "));
    const std::string no_such(64, 'f');
    RunOutcome no_key = f.run("results", {"--rerun", no_such});
    CHECK(no_key.exit_status == 2);
    CHECK(contains(no_key.err, "--rerun " + no_such + ": no game of this league has that key"));
    CHECK(f.keys("results") == before);
}
