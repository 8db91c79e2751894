// The results store's index: the games it expects (the schedule's, then the added ones), written
// in one place (whole, or an arena's rounds appended), and which of them it holds.
#include "runner/league/results_store.hpp"
#include "runner/sys/temp_dir.hpp"
#include "runner/testing/drawn_record.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <iterator>
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

namespace {

// An arena's index (no schedule up front) of bots a and b with one round of theirs.
LeagueIndex arena_index() {
    LeagueIndex index = three_bots({{"a", "b"}});
    index.settings.games_per_pair = 0;
    index.bots.pop_back();
    return index;
}

// The round that `grown` adds to the index before it: its new bots, its last pair, its last two games.
IndexRound round_of(const LeagueIndex& grown, std::size_t bots_before) {
    const std::vector<ScheduledGame> games = expected_games(grown);
    return {{grown.bots.begin() + static_cast<std::ptrdiff_t>(bots_before), grown.bots.end()},
            grown.added.back(),
            {games[games.size() - 2].key, games.back().key}};
}

std::string text_of(const fs::path& file) {
    std::ifstream in(file);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace

TEST_CASE("store: rounds appended to an arena's index are read with it, a line each, league.json left alone") {
    const TempDir root("results-store-rounds");
    const fs::path dir = root.path() / "results";
    ResultsStore store(dir);
    LeagueIndex index = arena_index();
    store.save_index(index);
    const std::string whole = text_of(index_file(dir));
    CHECK(!fs::exists(rounds_file(dir)));

    // A round with a new bot, then one of known bots.
    index.bots.push_back({"c", "hash-c"});
    index.added.push_back({"c", "a"});
    store.append_index(round_of(index, 2));
    index.added.push_back({"b", "a"});
    store.append_index(round_of(index, 3));

    CHECK(text_of(index_file(dir)) == whole);
    const std::string rounds = text_of(rounds_file(dir));
    CHECK(std::count(rounds.begin(), rounds.end(), '\n') == 3);  // the index's id, then a line a round
    const StoredIndex read = load_index(dir);
    CHECK(read.added == index.added);
    REQUIRE(read.bots.size() == 3);
    CHECK(read.bots[2].name == "c");
    CHECK(read.bots[2].hash == "hash-c");
    CHECK(read.keys == keys_of(expected_games(index)));
    CHECK(read.keys.size() == 6);

    // Written whole again, the index holds its rounds and their file goes.
    store.save_index(read);
    CHECK(!fs::exists(rounds_file(dir)));
    CHECK(load_index(dir).keys == read.keys);
}

TEST_CASE("store: the rounds of another index, a line a crash cut short and a broken line") {
    const TempDir root("results-store-rounds-bad");
    const fs::path dir = root.path() / "results";
    ResultsStore store(dir);
    LeagueIndex index = arena_index();

    SUBCASE("no round before the index is written") {
        index.added.push_back({"a", "b"});
        CHECK_THROWS_WITH_AS(store.append_index(round_of(index, 2)), doctest::Contains("no index written whole"),
                             StoreError);
    }
    SUBCASE("a rounds file naming another index is not read: left by a crash before its index was written whole") {
        store.save_index(index);
        index.added.push_back({"a", "b"});
        store.append_index(round_of(index, 2));
        const std::string rounds = text_of(rounds_file(dir));
        store.save_index(arena_index());
        std::ofstream(rounds_file(dir)) << rounds;
        CHECK(load_index(dir).added.size() == 1);
    }
    SUBCASE("an index written before rounds were appended (no id) reads no rounds file") {
        store.save_index(index);
        index.added.push_back({"a", "b"});
        store.append_index(round_of(index, 2));
        nlohmann::json old = nlohmann::json::parse(text_of(index_file(dir)));
        old.erase("id");
        std::ofstream(index_file(dir)) << old.dump(2);
        const StoredIndex read = load_index(dir);
        CHECK(read.added.size() == 1);
        CHECK(read.keys == keys_of(expected_games(arena_index())));
    }
    SUBCASE("a last line without its newline is not read; a broken line before the last is an error") {
        store.save_index(index);
        index.added.push_back({"a", "b"});
        store.append_index(round_of(index, 2));
        const std::string rounds = text_of(rounds_file(dir));
        std::ofstream(rounds_file(dir), std::ios::app) << rounds.substr(rounds.find('\n') + 1, 20);
        CHECK(load_index(dir).added.size() == 2);
        std::ofstream(rounds_file(dir), std::ios::app) << "\n";
        CHECK_THROWS_WITH_AS(load_index(dir), doctest::Contains("league-rounds.jsonl: line 3: "), StoreError);
    }
}
