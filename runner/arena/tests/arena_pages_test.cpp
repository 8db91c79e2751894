// The arena's pages off the serving thread: however many games are stored within an interval,
// the leaderboard is made at most at its start and once more at the end, and the games waiting
// for their viewer page are bounded.
#include "runner/arena/arena_pages.hpp"
#include "runner/arena/arena_schedule.hpp"
#include "runner/sys/temp_dir.hpp"

#include <doctest/doctest.h>

#include <atomic>
#include <cstdio>

using namespace gol::runner;
using namespace std::chrono_literals;

namespace {

struct Counting : LeagueObserver {
    void game_stored(const ResultsStore&, const GameRecord&, const PlayedGame&) override { ++viewers; }
    void run_finished(const ResultsStore&, const LeagueTable&) override { ++leaderboards; }
    std::atomic<int> viewers = 0, leaderboards = 0;
};

}  // namespace

TEST_CASE("arena pages: a hundred games in an interval make at most two leaderboards, each game at most one viewer page") {
    TempDir dir("arena-pages");
    ResultsStore store(dir.path() / "results");
    LeagueSettings settings;
    settings.config = {20, 20, 5};
    const ArenaSchedule schedule(store, settings, stderr);  // the store's index, which the table reads
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
