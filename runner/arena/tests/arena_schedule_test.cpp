#include "runner/arena/arena_schedule.hpp"

#include "runner/league/league.hpp"
#include "runner/sys/temp_dir.hpp"
#include "runner/testing/drawn_record.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iterator>

using namespace gol::runner;
namespace fs = std::filesystem;

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

namespace {

std::string text_of(const fs::path& file) {
    std::ifstream in(file);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

std::size_t lines_of(const fs::path& file) {
    const std::string text = text_of(file);
    return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

}  // namespace

TEST_CASE("arena schedule: a new round is a line appended, league.json left alone; a restart folds them in") {
    TempDir dir("arena-schedule-rounds");
    ResultsStore store(dir.path() / "results");
    std::vector<ScheduledGame> begun;
    {
        ArenaSchedule schedule(store, small(), stderr);
        const std::string whole = text_of(index_file(store.dir()));
        begun.push_back(schedule.begin("a", "b"));  // a round, with two new bots
        begun.push_back(schedule.begin("a", "b"));
        begun.push_back(schedule.begin("b", "a"));  // the pair's second round
        begun.push_back(schedule.begin("c", "a"));  // a round with a new bot
        CHECK(text_of(index_file(store.dir())) == whole);
        CHECK(lines_of(rounds_file(store.dir())) == 4);  // the index's id, then a line a round

        // The index as read lists the games begun, where a league's added games would be.
        const StoredIndex index = load_index(store.dir());
        CHECK(index.added == std::vector<AddedPair>{{"a", "b"}, {"b", "a"}, {"c", "a"}});
        const std::vector<ScheduledGame> expected = expected_games(index);
        CHECK(keys_of(expected) == index.keys);
        REQUIRE(expected.size() == 6);
        for (std::size_t i = 0; i < 3; ++i) CHECK(begun[i].key == expected[i].key);
        CHECK(begun[3].key == expected[4].key);
        CHECK(begun[3].inputs.bots == std::array<std::string, 2>{"a", "c"});

        // Stored games count in `runner table`'s table, read from the index with its rounds.
        for (const std::size_t i : {0, 2, 3}) {
            store.save(testing::decided_record(begun[i], 5, 4), "", "");
            schedule.end(begun[i], true);
        }
        schedule.end(begun[1], false);
        const LeagueTable table = table_from_store(store.dir(), std::nullopt, stderr);
        CHECK(table.games.size() == 3);
        CHECK(table.standings.size() == 3);
    }
    // A restart writes the index whole, its rounds in it, and carries on where the store stopped.
    ArenaSchedule again(store, small(), stderr);
    CHECK(!fs::exists(rounds_file(store.dir())));
    CHECK(load_index(store.dir()).keys.size() == 6);
    CHECK(again.met("a", "b") == 2);
    CHECK(again.met("a", "c") == 1);
    CHECK(again.begin("b", "a").key == begun[1].key);
    CHECK(again.begin("a", "b").inputs.game_index == 3);
    CHECK(again.begin("a", "b").inputs.game_index == 4);
    CHECK(lines_of(rounds_file(store.dir())) == 2);
}

TEST_CASE("arena schedule: a training bot changed since the last run plays its pairs' games under new keys") {
    TempDir dir("arena-schedule-rehash");
    ResultsStore store(dir.path() / "results");
    ScheduledGame first;
    {
        ArenaSchedule schedule(store, small(), stderr);
        first = schedule.begin("a", "Training/idle", "hash-1");
        store.save(testing::decided_record(first, 5, 4), "", "");
        schedule.end(first, true);
    }
    ArenaSchedule again(store, small(), stderr);
    const ScheduledGame changed = again.begin("a", "Training/idle", "hash-2");
    CHECK(changed.inputs.game_index == 0);
    CHECK(changed.key != first.key);
    CHECK(again.met("a", "Training/idle") == 2);
    // Written whole with the new hash, so the index's games are the new keys.
    const StoredIndex index = load_index(store.dir());
    REQUIRE(index.bots.size() == 2);
    CHECK(index.bots[1].hash == "hash-2");
    CHECK(index.keys.front() == changed.key);
    CHECK(!fs::exists(rounds_file(store.dir())));
}

TEST_CASE("arena schedule: a round whose line cannot be appended is in the index written whole") {
    TempDir dir("arena-schedule-whole");
    ResultsStore store(dir.path() / "results");
    ArenaSchedule schedule(store, small(), stderr);
    // A folder where the rounds file goes: it cannot be made.
    fs::create_directories(rounds_file(store.dir()) / "in-the-way");
    const ScheduledGame game = schedule.begin("a", "b");
    fs::remove_all(rounds_file(store.dir()));
    const StoredIndex index = load_index(store.dir());
    CHECK(index.added == std::vector<AddedPair>{{"a", "b"}});
    CHECK(index.keys.front() == game.key);
}
