// A league's progress events: each carries the league's counts, and they hold while
// --until-separated adds games. Plays whole leagues through run_league, whose events the binary's
// display does not show in a pipe.
#include "runner/league/league.hpp"
#include "runner/sys/temp_dir.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <mutex>
#include <string>
#include <vector>

using namespace gol::runner;
namespace fs = std::filesystem;

namespace {

// Every event's counts, in order.
class CountsSeen : public LeagueProgress {
public:
    struct Event {
        std::string what;
        LeagueCounts counts;
    };
    void league_started(const LeagueCounts& c) override { add("started", c); }
    void games_added(const LeagueCounts& c) override { add("added", c); }
    void game_started(const LeagueCounts& c) override { add("game started", c); }
    void game_finished(const FinishedGame& g) override {
        add("game finished", g.counts);
        std::lock_guard lock(mutex_);
        starts_.push_back(g.when.started);
    }
    void game_abandoned(const LeagueCounts& c) override { add("game abandoned", c); }
    void work_done(const LeagueWork& w) override {
        std::lock_guard lock(mutex_);
        work_.push_back(w);
    }

    std::vector<Event> events() {
        std::lock_guard lock(mutex_);
        return events_;
    }
    std::vector<LeagueWork> work() {
        std::lock_guard lock(mutex_);
        return work_;
    }
    std::vector<std::string> starts() {
        std::lock_guard lock(mutex_);
        return starts_;
    }

private:
    void add(std::string what, const LeagueCounts& counts) {
        std::lock_guard lock(mutex_);
        events_.push_back({std::move(what), counts});
    }
    std::mutex mutex_;
    std::vector<Event> events_;
    std::vector<LeagueWork> work_;
    std::vector<std::string> starts_;
};

}  // namespace

TEST_CASE("until separated: the progress events never count more games stored than the league has") {
    const TempDir root("until-separated-counts");
    const WorkArea area;
    LeagueOptions o;
    o.bots_dir = root.path() / "bots";
    o.results_dir = root.path() / "results";
    o.cache_dir = root.path() / "cache";
    o.settings.config = {20, 20, 5};
    o.settings.time_limit_ms = 60000;
    o.settings.sandboxed = false;
    o.jobs = 2;
    o.area = &area;
    o.until_separated = 2;
    fs::create_directories(o.bots_dir);
    // Two bots placing one cell where their seed says draw every game and never repeat: a round of
    // two more games spends the budget.
    for (const char* bot : {"cell1.py", "cell2.py"})
        std::ofstream(o.bots_dir / bot) << "import json, os\nseed = int(os.environ['GOL_SEED'])\n"
                                            "print(json.dumps([[seed % 400 // 20, seed % 20]]))\n";
    ProcessRegistry registry;

    const auto run = [&](CountsSeen& seen) {
        o.progress = &seen;
        const LeagueOutcome outcome = run_league(o, registry, {}, stderr);
        CHECK(outcome.table.total == 4);
        CHECK(outcome.stored == 4);
        const std::vector<CountsSeen::Event> events = seen.events();
        for (const CountsSeen::Event& e : events) {
            CAPTURE(e.what);
            CAPTURE(e.counts.stored);
            CAPTURE(e.counts.total);
            CHECK(e.counts.stored <= e.counts.total);
            CHECK(e.counts.played <= e.counts.stored);
            CHECK(e.counts.running >= 0);
        }
        return events;
    };

    CountsSeen watched;
    const std::vector<CountsSeen::Event> first = run(watched);
    REQUIRE(first.size() == 1 + 2 * 2 + 1 + 2 * 2);  // started, 2 games, added, 2 games
    CHECK(first.front().counts == LeagueCounts{2, 0, 0, 0});
    int finished = 0;
    for (const CountsSeen::Event& e : first) finished += e.what == "game finished";
    CHECK(finished == 4);
    const auto added = std::find_if(first.begin(), first.end(), [](const auto& e) { return e.what == "added"; });
    REQUIRE(added != first.end());
    CHECK(added->counts == LeagueCounts{4, 2, 2, 0});
    CHECK(first.back().counts == LeagueCounts{4, 4, 4, 0});

    // The generations told as they were played: the work left shrinks to none, and each finished
    // game says when it started.
    const std::vector<LeagueWork> work = watched.work();
    REQUIRE(!work.empty());
    for (std::size_t i = 1; i < work.size(); ++i) CHECK(work[i].done >= work[i - 1].done);
    CHECK(work.back().left == 0);
    CHECK(work.back().done > 0);
    CHECK(work.back().done <= 4 * 5);
    for (const std::string& started : watched.starts()) CHECK(started.size() == 20);

    // Again: every game reused, the added ones too, and none played.
    CountsSeen unwatched;
    const std::vector<CountsSeen::Event> again = run(unwatched);
    REQUIRE(again.size() == 2);
    CHECK(again[0].what == "started");
    CHECK(again[0].counts == LeagueCounts{2, 2, 0, 0});
    CHECK(again[1].what == "added");
    CHECK(again[1].counts == LeagueCounts{4, 4, 0, 0});
}

