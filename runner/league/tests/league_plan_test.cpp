// `runner league --plan`'s list without the CLI: the schedule's games in their order, less the
// stored ones whose record holds, and the index written as a league writes it.
#include "runner/league/league.hpp"
#include "runner/sys/temp_dir.hpp"
#include "runner/testing/drawn_record.hpp"

#include <doctest/doctest.h>

#include <cstdio>
#include <fstream>

using namespace gol::runner;
using gol::runner::testing::drawn_record;
namespace fs = std::filesystem;

namespace {

// Three shell bots (nothing to build or to run: a plan plays nothing), 20x20, 10 generations.
struct PlanFixture {
    TempDir root{"league-plan"};
    LeagueOptions options;

    PlanFixture() {
        options.bots_dir = root.path() / "bots";
        options.results_dir = root.path() / "results";
        options.cache_dir = root.path() / "cache";
        options.settings.config = {20, 20, 10};
        options.settings.sandboxed = false;
        fs::create_directories(options.bots_dir);
        for (const char* bot : {"a.sh", "b.sh", "c.sh"}) std::ofstream(options.bots_dir / bot) << "echo '[]'\n";
    }

    LeaguePlan plan() { return plan_league(options, stderr); }

    // A draw after every generation, as a league would store it for `game`.
    void store(const PlannedGame& game) {
        ResultsStore(options.results_dir).save(drawn_record(scheduled().at(game.index)), "", "");
    }

    std::vector<ScheduledGame> scheduled() {
        const LeagueIndex index = load_index(options.results_dir);
        return schedule_league(index.bots, index.settings);
    }
};

}  // namespace

TEST_CASE("plan: every game of the schedule in its order, the same each time, and the index written") {
    PlanFixture f;
    const LeaguePlan plan = f.plan();
    CHECK(plan.total == 6);
    CHECK(plan.stored == 0);
    REQUIRE(plan.to_play.size() == 6);
    const std::vector<ScheduledGame> schedule = f.scheduled();
    for (std::size_t i = 0; i < plan.to_play.size(); ++i) {
        CAPTURE(i);
        const PlannedGame& g = plan.to_play[i];
        CHECK(g.index == i);
        CHECK(g.key == schedule[i].key);
        CHECK(g.bots == schedule[i].inputs.bots);
        CHECK(g.game == schedule[i].inputs.game_index);
    }
    CHECK(plan.to_play[0].bots == std::array<std::string, 2>{"a", "b"});
    CHECK(plan.to_play[1].bots == std::array<std::string, 2>{"b", "a"});
    CHECK(plan.to_play[1].game == 1);

    const LeaguePlan again = f.plan();
    REQUIRE(again.to_play.size() == 6);
    for (std::size_t i = 0; i < 6; ++i) CHECK(again.to_play[i].key == plan.to_play[i].key);
    CHECK(load_index(f.options.results_dir).keys.size() == 6);
}

TEST_CASE("plan: stored games are left out, keeping the others' indexes; a broken record counts as missing") {
    PlanFixture f;
    const LeaguePlan first = f.plan();
    f.store(first.to_play[1]);
    f.store(first.to_play[4]);
    const LeaguePlan later = f.plan();
    CHECK(later.total == 6);
    CHECK(later.stored == 2);
    REQUIRE(later.to_play.size() == 4);
    std::vector<std::size_t> indexes;
    for (const PlannedGame& g : later.to_play) indexes.push_back(g.index);
    CHECK(indexes == std::vector<std::size_t>{0, 2, 3, 5});
    CHECK(later.to_play[1].key == first.to_play[2].key);

    // Another game's record copied under this key does not hold for this game.
    const fs::path games = f.options.results_dir / "games";
    fs::copy_file(games / (first.to_play[1].key + ".json"), games / (first.to_play[0].key + ".json"));
    std::ofstream(games / (first.to_play[4].key + ".json"), std::ios::trunc) << "{\"not\": \"a record\"}";
    const LeaguePlan broken = f.plan();
    CHECK(broken.stored == 1);
    REQUIRE(broken.to_play.size() == 5);
    CHECK(broken.to_play[0].index == 0);
    CHECK(broken.to_play[3].index == 4);
}
