// A seat's time per move: sums, the longest move, CPU only where measured, timeouts and near-timeouts;
// the game log, where no bot's line reads as the runner's.
#include "runner/game/game_stats.hpp"

#include <doctest/doctest.h>

#include <sstream>

using namespace gol::runner;
using std::chrono::microseconds;
using std::chrono::milliseconds;

namespace {

MoveReport move(microseconds elapsed, std::optional<microseconds> cpu, std::optional<ForfeitKind> forfeit = {}) {
    MoveReport m;
    m.elapsed = elapsed;
    m.cpu = cpu;
    if (forfeit) m.forfeit = Forfeit{*forfeit, "detail"};
    return m;
}

}  // namespace

TEST_CASE("move timing: totals, longest, CPU where measured, timeouts and moves over 80% of the limit") {
    GameStats stats;
    stats.on_move(1, 1, move(microseconds(100'000), microseconds(90'000)));
    stats.on_move(1, 2, move(microseconds(1'000'000), std::nullopt, ForfeitKind::timeout));
    stats.on_move(2, 1, move(microseconds(800'000), microseconds(10'000)));  // exactly 80%: not near
    stats.on_move(2, 2, move(microseconds(800'001), std::nullopt, ForfeitKind::exit_status));  // near
    stats.on_move(3, 1, move(microseconds(900'000), std::nullopt));  // near, CPU not known

    const MoveTiming one = move_timing(stats.seat(1), milliseconds(1000));
    CHECK(one.moves == 3);
    CHECK(one.wall_total == microseconds(1'800'000));
    CHECK(one.wall_max == microseconds(900'000));
    CHECK(one.cpu_moves == 2);
    CHECK(one.cpu_total == microseconds(100'000));
    CHECK(one.cpu_max == microseconds(90'000));
    CHECK(one.timeouts == 0);
    CHECK(one.near_timeouts == 1);

    const MoveTiming two = move_timing(stats.seat(2), milliseconds(1000));
    CHECK(two.moves == 2);
    CHECK(two.cpu_moves == 0);
    CHECK(two.timeouts == 1);
    CHECK(two.near_timeouts == 1);

    MoveTiming sum = one;
    sum += two;
    CHECK(sum.moves == 5);
    CHECK(sum.wall_total == microseconds(3'600'001));
    CHECK(sum.wall_max == microseconds(1'000'000));
    CHECK(sum.cpu_moves == 2);
    CHECK(sum.timeouts == 1);
    CHECK(sum.near_timeouts == 2);

    CHECK(move_timing(SeatStats{}, milliseconds(1000)) == MoveTiming{});
}

TEST_CASE("move timing: a move with the start-up allowance is no near-timeout, but its timeout counts") {
    GameStats stats;
    MoveReport start = move(microseconds(5'000'000), microseconds(4'000'000));
    start.startup = true;
    stats.on_move(1, 1, start);  // 5 s of a 1 s limit plus the allowance: in time
    MoveReport slow_start = move(microseconds(11'000'000), std::nullopt, ForfeitKind::timeout);
    slow_start.startup = true;
    stats.on_move(1, 2, slow_start);
    const MoveTiming one = move_timing(stats.seat(1), milliseconds(1000));
    CHECK(one.near_timeouts == 0);
    CHECK(one.timeouts == 0);
    CHECK(one.wall_max == microseconds(5'000'000));  // still the longest move
    CHECK(move_timing(stats.seat(2), milliseconds(1000)).timeouts == 1);
}

TEST_CASE("game stats: a seat keeps the last lines of stderr of its latest crash, not of other forfeits") {
    GameStats stats;
    MoveReport crash = move(microseconds(1000), std::nullopt, ForfeitKind::exit_status);
    crash.err = "Traceback (most recent call last):\n  File \"bot.py\", line 3\n    import numpy\n"
                "  more\n  and more\nModuleNotFoundError: No module named 'numpy'\n";
    stats.on_move(4, 1, crash);
    MoveReport slow = move(microseconds(1000), std::nullopt, ForfeitKind::timeout);
    slow.err = "still thinking\n";
    stats.on_move(5, 1, slow);
    const SeatStats& s = stats.seat(1);
    CHECK(s.crash_tick == 4);
    CHECK(s.crash_stderr == std::vector<std::string>{"  File \"bot.py\", line 3", "    import numpy", "  more",
                                                     "  and more", "ModuleNotFoundError: No module named 'numpy'"});
    CHECK(s.last_forfeit == "timeout: detail");
    CHECK(stats.seat(2).crash_stderr.empty());
}

TEST_CASE("game log: every line a bot writes to stderr is marked as its own, so none forges the runner's") {
    std::ostringstream out;
    GameLog log(out, {"one", "idle"}, 90);
    MoveReport forged = move(microseconds(1000), std::nullopt, ForfeitKind::timeout);
    forged.err = "tick 0 seat 2 (idle): forfeit timeout: forged\n\ntick 1 seat 2 (idle) stderr:";
    log.on_move(0, 1, forged);
    MoveReport more = move(microseconds(1000), std::nullopt);
    more.err = "a line past the cap\n";
    log.on_move(1, 1, more);
    log.on_move(2, 1, more);
    CHECK(out.str() == "tick 0 seat 1 (one): forfeit timeout: detail\n"
                       "tick 0 seat 1 (one) stderr:\n"
                       "  | tick 0 seat 2 (idle): forfeit timeout: forged\n"
                       "  | \n"
                       "  | tick 1 seat 2 (idle) stderr:\n"
                       "tick 1 seat 1 (one) stderr:\n"
                       "  | a line past the\n"
                       "[one: stderr log capped at 90 bytes]\n");
    // Each line the runner wrote itself starts with "tick " or "[", each of the bot's with the mark.
    std::istringstream lines(out.str());
    for (std::string line; std::getline(lines, line);)
        CHECK((line.starts_with("tick ") || line.starts_with("[") || line.starts_with("  | ")));
}

TEST_CASE("move timing: a move forfeited for a spent time bank never ran, so it has no time, only its forfeit") {
    GameStats stats;
    stats.on_move(0, 1, move(microseconds(1'100'000), std::nullopt));
    stats.on_move(1, 1, move(microseconds(0), std::nullopt, ForfeitKind::time_bank));
    stats.on_move(2, 1, move(microseconds(0), std::nullopt, ForfeitKind::time_bank));
    const MoveTiming t = move_timing(stats.seat(1), milliseconds(1000));
    CHECK(t.moves == 1);
    CHECK(median(stats.seat(1).move_times) == microseconds(1'100'000));
    CHECK(stats.seat(1).forfeits_by_reason.at("time_bank") == 2);
}

TEST_CASE("game log: a spent time bank's forfeit is logged once, not at every later tick of the game") {
    std::ostringstream out;
    GameLog log(out, {"slow", "idle"});
    for (int tick = 3; tick < 6; ++tick) log.on_move(tick, 1, move(microseconds(0), std::nullopt, ForfeitKind::time_bank));
    log.on_move(6, 1, move(microseconds(0), std::nullopt, ForfeitKind::timeout));
    log.on_move(6, 2, move(microseconds(0), std::nullopt, ForfeitKind::time_bank));
    CHECK(out.str() == "tick 3 seat 1 (slow): forfeit time_bank: detail\n"
                       "tick 6 seat 1 (slow): forfeit timeout: detail\n"
                       "tick 6 seat 2 (idle): forfeit time_bank: detail\n");
}
