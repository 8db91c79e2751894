// The arena's leaderboard with 100 and 2000 stored games, made as `runner serve` made it before
// the table was kept in memory (the whole store read: table_from_store) and as it makes it now
// (ArenaTable: one game added to the tally), each then written as the page by LeaguePages. Prints
// milliseconds, the fastest of kRepeats runs, and the ratios side by side, and what of the page's
// time grows with the games it lists (scripts/bench/leaderboard).
// Usage: leaderboard-bench [GAMES...]   (default 100 2000)
#include "runner/arena/arena_schedule.hpp"
#include "runner/arena/arena_table.hpp"
#include "runner/league/league.hpp"
#include "runner/report/leaderboard_page.hpp"
#include "runner/report/league_pages.hpp"
#include "runner/sys/temp_dir.hpp"
#include "runner/testing/drawn_record.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace {

using namespace gol::runner;
using Clock = std::chrono::steady_clock;

constexpr int kRepeats = 5;
constexpr int kBots = 20;

double ms_since(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

// An arena's store with `games` games among kBots clients, each with the files the arena leaves:
// record, replay, log and viewer page.
class BenchStore {
public:
    explicit BenchStore(int games) : dir_("leaderboard-bench"), store_(dir_.path() / "results") {
        settings_.config = {64, 64, 100};
        schedule_.emplace(store_, settings_, stderr);
        std::filesystem::create_directories(store_.dir() / "viewers");
        for (int k = 0; k < games; ++k) play();
    }

    const ResultsStore& store() const { return store_; }

    // One more game stored, as the arena stores it; its record.
    GameRecord play() {
        const int a = n_ % kBots, b = (a + 1 + (n_ / kBots) % (kBots - 1)) % kBots;
        const ScheduledGame g = schedule_->begin("bench" + std::to_string(a) + "/bot", "bench" + std::to_string(b) + "/bot");
        const GameRecord r = testing::decided_record(g, 4 + n_ % 3, 4 + (n_ / 3) % 3);
        store_.save(r, "", "");
        std::ofstream(store_.viewer_path(r.key)) << "<!doctype html>\n";
        schedule_->end(g, true);
        ++n_;
        return r;
    }

private:
    TempDir dir_;
    ResultsStore store_;
    LeagueSettings settings_;
    std::optional<ArenaSchedule> schedule_;
    int n_ = 0;
};

struct Timing {
    double table = 1e300, page = 1e300;
    double total() const { return table + page; }
};

void keep_fastest(Timing& t, double table, double page) {
    t.table = std::min(t.table, table);
    t.page = std::min(t.page, page);
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<int> sizes;
    for (int i = 1; i < argc; ++i) sizes.push_back(std::stoi(argv[i]));
    if (sizes.empty()) sizes = {100, 2000};
    const std::unique_ptr<std::FILE, int (*)(std::FILE*)> quiet(std::fopen("/dev/null", "w"), &std::fclose);
    std::vector<Timing> before(sizes.size()), after(sizes.size());
    std::vector<double> text(sizes.size(), 1e300);
    for (std::size_t i = 0; i < sizes.size(); ++i) {
        BenchStore bench(sizes[i]);
        // Before: each leaderboard read the whole store.
        for (int r = 0; r < kRepeats; ++r) {
            bench.play();
            const auto t0 = Clock::now();
            const LeagueTable table = table_from_store(bench.store().dir(), std::nullopt, quiet.get());
            const double table_ms = ms_since(t0);
            // As before, every game's viewer page looked for at each leaderboard.
            LeaguePages pages(quiet.get(), false);
            const auto t1 = Clock::now();
            pages.run_finished(bench.store(), table);
            keep_fastest(before[i], table_ms, ms_since(t1));
        }
        // Now: the store read once at start-up, the viewer pages looked for once at the first
        // leaderboard, then each stored game added to the table in memory.
        ArenaTable arena(table_from_store(bench.store().dir(), std::nullopt, quiet.get()));
        LeaguePages pages(quiet.get(), false);
        pages.run_finished(bench.store(), arena.table());
        for (int r = 0; r < kRepeats; ++r) {
            GameRecord record = bench.play();
            const auto t0 = Clock::now();
            arena.add(std::move(record));
            const LeagueTable& table = arena.table();
            const double table_ms = ms_since(t0);
            const auto t1 = Clock::now();
            pages.run_finished(bench.store(), table);
            keep_fastest(after[i], table_ms, ms_since(t1));
            // What of the page's time grows with the games it lists: its text (the rest is the durable write).
            const auto t2 = Clock::now();
            const std::string page = leaderboard_page(table, store_heading(bench.store().dir()));
            text[i] = std::min(text[i], ms_since(t2));
            if (page.empty()) std::fprintf(stderr, "leaderboard-bench: an empty page\n");
        }
    }
    std::printf("%-7s | %-30s | %-30s | %s\n", "stored", "before: table + page = ms", "now: table + page = ms",
                "before / now");
    for (std::size_t i = 0; i < sizes.size(); ++i)
        std::printf("%-7d | %8.2f + %8.2f = %8.2f | %8.2f + %8.2f = %8.2f | %.1fx\n", sizes[i], before[i].table,
                    before[i].page, before[i].total(), after[i].table, after[i].page, after[i].total(),
                    before[i].total() / after[i].total());
    for (std::size_t i = 0; i < sizes.size(); ++i)
        std::printf("%d stored: of the page's time, its text %.2f ms\n", sizes[i], text[i]);
    for (std::size_t i = 1; i < sizes.size(); ++i)
        std::printf("%d vs %d stored: before %.1fx the time (table %.1fx), now %.1fx (table %.1fx)\n", sizes[i], sizes[0],
                    before[i].total() / before[0].total(), before[i].table / before[0].table,
                    after[i].total() / after[0].total(), after[i].table / after[0].table);
}
