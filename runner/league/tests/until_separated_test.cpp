// --until-separated: its rounds decided from the games stored so far, each record read once.
#include "runner/league/until_separated.hpp"
#include "runner/sys/temp_dir.hpp"
#include "runner/testing/drawn_record.hpp"
#include "runner/testing/runner_fixture.hpp"

#include <doctest/doctest.h>

#include <cstdio>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

using namespace gol::runner;
using gol::runner::testing::drawn_record;
using gol::runner::testing::contains;
using gol::runner::testing::read_text;
namespace fs = std::filesystem;

TEST_CASE("until separated: each round reads only its own games' records, keeping those read before") {
    const TempDir root("until-separated-rounds");
    ResultsStore store(root.path() / "results");
    LeagueIndex index;
    index.settings.config = {20, 20, 5};
    index.settings.sandboxed = false;
    index.bots = {{"a", "hash-a"}, {"b", "hash-b"}};
    const std::vector<ScheduledGame> schedule = store.save_index(index);
    for (const ScheduledGame& g : schedule) store.save(drawn_record(g), "", "");
    const fs::path log_file = root.path() / "log";
    const std::unique_ptr<std::FILE, int (*)(std::FILE*)> log(std::fopen(log_file.c_str(), "w"), &std::fclose);
    REQUIRE(log);
    int rounds = 0;
    // Stores the round's games as draws, whose replays cannot be read: the pair stays uncertain.
    const PlayRound play_round = [&](const std::vector<AddedPair>& added, int games) {
        ++rounds;
        index.added = added;
        const std::vector<ScheduledGame> expected = store.save_index(index);
        std::vector<ScheduledGame> round(expected.end() - games, expected.end());
        for (const ScheduledGame& g : round) store.save(drawn_record(g), "", "");
        // A record read before is not read again: spoiling one now changes nothing.
        std::ofstream(store.dir() / "games" / (schedule[0].key + ".json"), std::ios::trunc) << "spoilt";
        return std::optional(round);
    };
    play_until_separated({4, "", Scoring::wins, {"a", "b"}}, schedule, store, play_round, log.get());
    std::fflush(log.get());
    const std::string text = read_text(log_file);
    INFO("log: " << text);
    CHECK(rounds == 2);
    CHECK(contains(text, "round 1: 2 more games each for a vs b (LOS 50.0%); 2 of 4 left"));
    CHECK(contains(text, "round 2: 2 more games each for a vs b (LOS 50.0%); 0 of 4 left"));
    CHECK(contains(text, "added 4 games (a vs b 4); budget spent; still uncertain: a vs b (LOS 50.0%)"));
    CHECK(!contains(text, "left out of the table"));
}
