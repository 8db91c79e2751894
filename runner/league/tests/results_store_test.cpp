// The results store's index: the games it expects (the schedule's, then the added ones), written
// in one place, and which of them it holds.
#include "runner/league/results_store.hpp"
#include "runner/sys/temp_dir.hpp"
#include "runner/testing/drawn_record.hpp"

#include <doctest/doctest.h>

#include <fstream>
#include <string>
#include <vector>

using namespace gol::runner;
using gol::runner::testing::drawn_record;
namespace fs = std::filesystem;

namespace {

// Three bots a, b, c, two games a pair, and the pairs `added` given two more games.
LeagueIndex three_bots(std::vector<AddedPair> added) {
    LeagueIndex index;
    index.settings.config = {20, 20, 10};
    index.settings.sandboxed = false;
    index.bots = {{"a", "hash-a"}, {"b", "hash-b"}, {"c", "hash-c"}};
    index.added = std::move(added);
    return index;
}

}  // namespace

TEST_CASE("store: the index expects the schedule's games, then the added ones, and lists their keys") {
    const TempDir root("results-store-index");
    const fs::path dir = root.path() / "results";
    CHECK(!find_index(dir).has_value());
    CHECK_THROWS_WITH_AS(load_index(dir), doctest::Contains("league.json: cannot be read"), StoreError);

    const LeagueIndex index = three_bots({{"c", "a"}});
    ResultsStore store(dir);
    const std::vector<ScheduledGame> expected = store.save_index(index);
    const std::vector<ScheduledGame> schedule = schedule_league(index.bots, index.settings);
    const std::vector<ScheduledGame> added = schedule_added(index.bots, index.settings, index.added);
    REQUIRE(schedule.size() == 6);
    REQUIRE(added.size() == 2);
    REQUIRE(expected.size() == 8);
    for (std::size_t i = 0; i < 6; ++i) CHECK(expected[i].key == schedule[i].key);
    CHECK(expected[6].key == added[0].key);
    CHECK(expected[7].key == added[1].key);
    CHECK(keys_of(expected_games(index)) == keys_of(expected));

    const std::optional<StoredIndex> read = find_index(dir);
    REQUIRE(read.has_value());
    CHECK(read->keys == keys_of(expected));
    CHECK(read->added == index.added);
    CHECK(keys_of(expected_games(*read)) == read->keys);
    CHECK(index_file(dir) == dir / "league.json");

    // A pair naming a bot the index does not have expects no games.
    CHECK_THROWS_AS(expected_games(three_bots({{"a", "zed"}})), std::invalid_argument);
}

TEST_CASE("store: which games it holds, by position, a record that does not hold counting as none") {
    const TempDir root("results-store-stored");
    const fs::path dir = root.path() / "results";
    ResultsStore store(dir);
    const std::vector<ScheduledGame> games = store.save_index(three_bots({}));
    store.save(drawn_record(games[1]), "", "");
    store.save(drawn_record(games[3]), "", "");
    // Another game's record copied under game 4's key does not hold for game 4.
    fs::copy_file(dir / "games" / (games[3].key + ".json"), dir / "games" / (games[4].key + ".json"));

    std::vector<std::string> bad;
    const auto held = load_stored(dir, games, [&](const StoreError& e) { bad.emplace_back(e.what()); });
    REQUIRE(held.size() == games.size());
    for (std::size_t i = 0; i < games.size(); ++i) {
        CAPTURE(i);
        CHECK(held[i].has_value() == (i == 1 || i == 3));
    }
    CHECK(held[3]->key == games[3].key);
    REQUIRE(bad.size() == 1);
    CHECK(bad[0].starts_with("games/" + games[4].key + ".json: "));
}
