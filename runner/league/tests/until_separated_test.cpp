// --until-separated: its rounds decided from the games stored so far, each record read once, and
// pairs of bots that repeat themselves when asked again given no games.
#include "runner/league/until_separated.hpp"
#include "runner/game/replay.hpp"
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
    play_until_separated({4, "", Scoring::wins, {"a", "b"}, {{"a", "aa"}, {"b", "bb"}}, {}}, schedule, store,
                         play_round, log.get());
    std::fflush(log.get());
    const std::string text = read_text(log_file);
    INFO("log: " << text);
    CHECK(rounds == 2);
    CHECK(contains(text, "round 1: 2 more games each for a vs b (LOS 50.0%); 2 of 4 left"));
    CHECK(contains(text, "round 2: 2 more games each for a vs b (LOS 50.0%); 0 of 4 left"));
    CHECK(contains(text, "added 4 games (a vs b 4); budget spent; still uncertain: a vs b (LOS 50.0%)"));
    CHECK(!contains(text, "left out of the table"));
}

namespace {

// A store holding a's and b's two scheduled games as draws, each with a replay that reads: a
// block each, still for the game's 5 generations.
struct BlocksStore {
    TempDir root{"until-separated-asked"};
    ResultsStore store{root.path() / "results"};
    std::vector<ScheduledGame> schedule;
    fs::path log_file = root.path() / "log";

    explicit BlocksStore(int games_per_pair = 2) {
        LeagueIndex index;
        index.settings.games_per_pair = games_per_pair;
        index.settings.config = {20, 20, 5};
        index.settings.sandboxed = false;
        index.bots = {{"a", "aa"}, {"b", "bb"}};
        schedule = store.save_index(index);
        for (const ScheduledGame& g : schedule) {
            Replay replay;
            replay.header = {g.inputs.bots, g.inputs.hashes, index.settings.config, g.inputs.seed, 1000};
            replay.ticks.resize(5);
            replay.ticks[0][0].cells = {{1, 1}, {1, 2}, {2, 1}, {2, 2}};
            replay.ticks[0][1].cells = {{10, 10}, {10, 11}, {11, 10}, {11, 11}};
            replay.result = resimulate(replay);
            store.save(drawn_record(g), replay_text(replay), "");
        }
    }

    // Runs it with `ask_again` and a budget of 4; the log, and how many rounds it played.
    std::pair<std::string, int> run(const AskAgain& ask_again) {
        int rounds = 0;
        const PlayRound play_round = [&](const std::vector<AddedPair>&, int) {
            ++rounds;
            return std::optional<std::vector<ScheduledGame>>();  // as a run that stops
        };
        {
            const std::unique_ptr<std::FILE, int (*)(std::FILE*)> log(std::fopen(log_file.c_str(), "w"), &std::fclose);
            REQUIRE(log);
            play_until_separated({4, "", Scoring::wins, {"a", "b"}, {{"a", "aa"}, {"b", "bb"}}, ask_again}, schedule,
                                 store, play_round, log.get());
        }
        return {read_text(log_file), rounds};
    }
};

}  // namespace

TEST_CASE("until separated: two bots that repeat their moves when asked again get no games, and are asked once") {
    BlocksStore s;
    std::vector<std::string> asked;
    const auto [text, rounds] = s.run([&](const std::string& bot, const Replay& replay, int seat) {
        asked.push_back(bot);
        // Its first game, from its seat: a's first is the schedule's game 0, in seat 1.
        CHECK(replay.header.bots[static_cast<std::size_t>(seat - 1)] == bot);
        return std::optional(RepeatCheck{"", "", "", 0, 3, true, ""});
    });
    INFO("log: " << text);
    CHECK(rounds == 0);
    CHECK(asked == std::vector<std::string>{"a", "b"});
    CHECK(contains(text, "a, shown again its first 3 boards of game " + s.schedule[0].key.substr(0, 12) +
                             " with another seed, made the same moves"));
    CHECK(contains(text, "a vs b is deterministic: both bots, shown again the boards of a game with another seed, "
                         "made the same moves; no more games for it"));
    CHECK(contains(text, "added 0 games; every adjacent pair is separated or deterministic"));
    const std::optional<RepeatCheck> kept = s.store.load_repeat("bb");
    REQUIRE(kept);
    CHECK(kept->bot == "b");
    CHECK(kept->repeats);
    CHECK(kept->ticks == 3);

    // The next run decides the same from the store, asking no one.
    int asked_again = 0;
    const auto [again, rounds_again] = s.run([&](const std::string&, const Replay&, int) {
        ++asked_again;
        return std::optional<RepeatCheck>();
    });
    CHECK(asked_again == 0);
    CHECK(rounds_again == 0);
    CHECK(contains(again, "a vs b is deterministic"));

    // Forgotten (--rerun BOT), b is asked again.
    CHECK(s.store.forget_repeat("bb"));
    const auto [third, rounds_third] = s.run([&](const std::string& bot, const Replay&, int) {
        asked.push_back(bot);
        return std::optional(RepeatCheck{"", "", "", 0, 10, true, ""});
    });
    CHECK(asked.back() == "b");
    CHECK(asked.size() == 3);
}

TEST_CASE("until separated: a bot that moves otherwise when asked again leaves its pair to its games") {
    BlocksStore s;
    int asked = 0;
    const auto [text, rounds] = s.run([&](const std::string& bot, const Replay&, int) {
        ++asked;
        return std::optional(RepeatCheck{"", "", "", 0, 2, bot == "b", bot == "b" ? "" : "at tick 1, other cells"});
    });
    INFO("log: " << text);
    // a did not repeat itself: b is not asked, and the pair gets its round.
    CHECK(asked == 1);
    CHECK(contains(text, "a, shown again its first 2 boards of game " + s.schedule[0].key.substr(0, 12) +
                             " with another seed, did not: at tick 1, other cells"));
    CHECK(!contains(text, "deterministic"));
    CHECK(rounds == 1);
    const std::optional<RepeatCheck> kept = s.store.load_repeat("aa");
    REQUIRE(kept);
    CHECK(!kept->repeats);
    CHECK(kept->why == "at tick 1, other cells");

    // A run that stops while a bot is asked plays nothing.
    BlocksStore stopped;
    const auto [none, no_rounds] = stopped.run([](const std::string&, const Replay&, int) { return std::optional<RepeatCheck>(); });
    CHECK(no_rounds == 0);
    CHECK(!stopped.store.load_repeat("aa"));
}

TEST_CASE("until separated: a pair whose games with the same seats were identical gets no games, however its bots answer") {
    // Two games in each seat order, identical move for move; neither bot repeats when asked again
    // (a bot that forfeits its first moves, or a tlv bot, is never shown to).
    BlocksStore s(4);
    const auto [text, rounds] = s.run([](const std::string&, const Replay&, int) {
        return std::optional(RepeatCheck{"", "", "", 0, 1, false, "at tick 0, its move forfeited (timeout)"});
    });
    INFO("log: " << text);
    CHECK(rounds == 0);
    CHECK(contains(text, "a vs b is deterministic: its games with the same seats were identical move for move"));
    CHECK(!contains(text, "shown again"));
}
