#include "runner/arena/arena_schedule.hpp"

#include "runner/sys/temp_dir.hpp"

#include <doctest/doctest.h>

#include <cstdio>

using namespace gol::runner;

namespace {

LeagueSettings small() {
    LeagueSettings s;
    s.config = {20, 20, 5};
    s.memory_limit_mb = 0;
    s.sandboxed = false;
    return s;
}

}  // namespace

TEST_CASE("arena schedule: a pair's games are a league's, seats alternating, counted as met") {
    TempDir dir("arena-schedule");
    ResultsStore store(dir.path() / "results");
    ArenaSchedule schedule(store, small(), stderr);
    CHECK(schedule.met("a", "b") == 0);
    const ScheduledGame first = schedule.begin("a", "b");
    const ScheduledGame second = schedule.begin("b", "a");
    CHECK(first.inputs.bots == std::array<std::string, 2>{"a", "b"});
    CHECK(second.inputs.bots == std::array<std::string, 2>{"b", "a"});
    CHECK(first.inputs.game_index == 0);
    CHECK(second.inputs.game_index == 1);
    CHECK(schedule.met("b", "a") == 2);
    const ScheduledGame third = schedule.begin("a", "b");
    CHECK(third.inputs.game_index == 2);
    CHECK(third.inputs.bots == std::array<std::string, 2>{"a", "b"});

    // A game not stored is free to be played again, under its key.
    schedule.end(second, false);
    CHECK(schedule.met("a", "b") == 2);
    CHECK(schedule.begin("a", "b").key == second.key);

    // The index lists the games, so `runner table` checks records against them.
    const StoredIndex index = load_index(store.dir());
    CHECK(index.settings.games_per_pair == 0);
    CHECK(index.scoring == "kd");
    CHECK(index.keys.size() == 4);
}

TEST_CASE("arena schedule: a league's store is refused") {
    TempDir dir("arena-schedule-league");
    {
        ResultsStore store(dir.path() / "results");
        LeagueIndex league;
        league.settings = small();
        league.bots = {{"x", "h"}, {"y", "h"}};
        store.save_index(league);
    }
    ResultsStore store(dir.path() / "results");
    CHECK_THROWS_AS(ArenaSchedule(store, small(), stderr), StoreError);
}

TEST_CASE("arena schedule: a game of a name with itself is refused, and the index stays readable") {
    TempDir dir("arena-schedule-self");
    ResultsStore store(dir.path() / "results");
    {
        ArenaSchedule schedule(store, small(), stderr);
        CHECK_THROWS_AS(schedule.begin("Training/idle", "Training/idle", "hash"), std::invalid_argument);
        CHECK(schedule.begin("a", "b").inputs.game_index == 0);
    }
    // A restart reads the index the refusal left.
    ArenaSchedule again(store, small(), stderr);
    CHECK(again.begin("a", "Training/idle", "hash").inputs.game_index == 0);
}
