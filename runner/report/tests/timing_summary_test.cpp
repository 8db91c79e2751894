#include "runner/report/timing_summary.hpp"

#include <doctest/doctest.h>

using namespace gol::runner;

namespace {

Standing bot(const std::string& name, int moves, int forfeits, int timeouts, int near) {
    Standing s;
    s.bot = name;
    s.forfeits = forfeits;
    MoveTiming t;
    t.moves = moves;
    t.timeouts = timeouts;
    t.near_timeouts = near;
    t.wall_max = std::chrono::milliseconds(1020);
    s.timing = t;
    return s;
}

}  // namespace

TEST_CASE("timing summary: bots that timed out, came near, or forfeited every move, and advice") {
    LeagueTable table;
    table.standings = {bot("fast", 100, 0, 0, 0), bot("slow", 100, 12, 12, 30), bot("close", 100, 0, 0, 4),
                       bot("broken", 50, 50, 0, 0)};
    Standing untimed;
    untimed.bot = "old";
    table.standings.push_back(untimed);
    const std::string text = timing_summary(table);
    CHECK(text.find("fast") == std::string::npos);
    CHECK(text.find("old") == std::string::npos);
    CHECK(text.find("league: slow timed out on 12 of its 100 moves, and took over 80% of the limit on 30 more "
                    "(longest move 1020.0 ms)\n") != std::string::npos);
    CHECK(text.find("league: close took over 80% of the time limit on 4 of its 100 moves") != std::string::npos);
    CHECK(text.find("league: broken forfeited every one of its 50 moves") != std::string::npos);
    CHECK(text.find("--time-mode cpu") != std::string::npos);

    table.standings = {bot("fast", 100, 0, 0, 0)};
    CHECK(timing_summary(table).empty());
}

TEST_CASE("timing summary: a spent time bank's turns are said, and are not moves the bot forfeited") {
    // Of banked's 100 turns, 20 ran and 80 were a spent bank's, none of them run.
    LeagueTable table;
    Standing banked = bot("banked", 20, 80, 0, 0);
    banked.time_bank_forfeits = 80;
    table.standings = {banked};
    const std::string text = timing_summary(table);
    CHECK(text == "league: banked spent its time bank (--time-bank): 80 more of its turns were forfeited without "
                  "running it\n");
}
