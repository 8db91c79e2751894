// The arena's pages off the serving thread: however many games are stored within an interval,
// the leaderboard is made at most at its start and once more at the end, the games waiting for
// their viewer page are bounded, and the leaderboard comes from the table in memory.
#include "runner/arena/arena_pages.hpp"
#include "runner/arena/arena_schedule.hpp"
#include "runner/testing/drawn_record.hpp"
#include "runner/sys/temp_dir.hpp"

#include <doctest/doctest.h>

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <set>

using namespace gol::runner;
using namespace std::chrono_literals;

namespace {

struct Counting : LeagueObserver {
    void game_stored(const ResultsStore&, const GameRecord&, const PlayedGame&) override { ++viewers; }
    void run_finished(const ResultsStore&, const LeagueTable&) override { ++leaderboards; }
    std::atomic<int> viewers = 0, leaderboards = 0;
};

// An arena's results store with its index, which the table reads.
struct ArenaStore {
    static LeagueSettings settings() {
        LeagueSettings s;
        s.config = {20, 20, 5};
        return s;
    }
    explicit ArenaStore(const std::string& name) : dir(name), store(dir.path() / "results"), schedule(store, settings(), stderr) {}
    TempDir dir;
    ResultsStore store;
    ArenaSchedule schedule;
};

}  // namespace

TEST_CASE("arena pages: a hundred games in an interval make at most two leaderboards, each game at most one viewer page") {
    ArenaStore arena("arena-pages");
    ResultsStore& store = arena.store;
    Counting counting;
    {
        ArenaPages pages(counting, store, std::chrono::hours(1), stderr);
        for (int i = 0; i < 100; ++i) pages.stored(GameRecord{}, PlayedGame{});
    }
    CHECK(counting.leaderboards >= 1);
    CHECK(counting.leaderboards <= 2);
    CHECK(counting.viewers >= static_cast<int>(ArenaPages::max_queued));
    CHECK(counting.viewers <= 100);
}

namespace {

// What the last leaderboard was made from.
struct Keeping : LeagueObserver {
    void run_finished(const ResultsStore&, const LeagueTable& table) override { last = table; }
    LeagueTable last;
};

}  // namespace

TEST_CASE("arena pages: a leaderboard after games stored reads no stored record: the table is kept in memory") {
    ArenaStore arena("arena-pages-memory");
    ResultsStore& store = arena.store;
    ArenaSchedule& schedule = arena.schedule;
    const std::vector<std::string> names = {"ann/x", "bob/y", "cat/z", "dan/w", "eve/v"};
    std::vector<GameRecord> all;
    const auto play = [&](int k) {
        const ScheduledGame g = schedule.begin(names[static_cast<std::size_t>(k % 5)],
                                               names[static_cast<std::size_t>((k % 5 + 1 + (k / 5) % 4) % 5)]);
        // Wins either way and draws.
        GameRecord r = gol::runner::testing::decided_record(g, 4 + k % 3, 4 + (k / 3) % 3);
        store.save(r, "", "");
        schedule.end(g, true);
        all.push_back(r);
        return r;
    };
    for (int k = 0; k < 30; ++k) play(k);
    Keeping keeping;
    {
        ArenaPages pages(keeping, store, std::chrono::hours(1), stderr);
        // From here on the store's records are gone: a leaderboard that read them would count
        // only the games stored after.
        int removed = 0;
        for (const auto& f : std::filesystem::directory_iterator(store.dir() / "games")) removed += std::filesystem::remove(f.path());
        REQUIRE(removed == 30);
        for (int k = 30; k < 60; ++k) pages.stored(play(k), PlayedGame{});
    }
    REQUIRE(table_from_store(store.dir(), std::nullopt, stderr).games.size() == 30);
    const LeagueTable& shown = keeping.last;
    REQUIRE(shown.games.size() == 60);
    // The games it started with in the store's order, then each as it was stored.
    const auto keys = [](auto from, auto to) {
        std::multiset<std::string> out;
        for (auto g = from; g != to; ++g) out.insert(g->key);
        return out;
    };
    CHECK(keys(shown.games.begin(), shown.games.begin() + 30) == keys(all.begin(), all.begin() + 30));
    for (std::size_t i = 30; i < all.size(); ++i) CHECK(shown.games[i].key == all[i].key);
    CHECK(shown.scoring == Scoring::kd);
    const std::vector<Standing> want = compute_standings(names, all, Scoring::kd);
    REQUIRE(shown.standings.size() == want.size());
    for (std::size_t i = 0; i < want.size(); ++i) {
        INFO(want[i].bot);
        CHECK(shown.standings[i].bot == want[i].bot);
        CHECK(shown.standings[i].rank == want[i].rank);
        CHECK(shown.standings[i].played == want[i].played);
        CHECK(shown.standings[i].points == want[i].points);
        CHECK(shown.standings[i].elo == want[i].elo);
    }
    CHECK(want.front().points > want.back().points);
}
