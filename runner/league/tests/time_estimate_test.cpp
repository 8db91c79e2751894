// --plan's estimate: each bot's stored moves, the time limit for a bot never measured, the
// runner's own time per generation, and the games spread over the workers.
#include "runner/league/time_estimate.hpp"

#include <doctest/doctest.h>

#include <algorithm>

using namespace gol::runner;
using namespace std::chrono_literals;

namespace {

// A stored game of `a` against `b`, 100 generations, each seat's 100 moves taking `a_ms` and
// `b_ms` each, the whole game `game_ms`.
GameRecord record(const std::string& a, const std::string& b, int a_ms, int b_ms, int game_ms) {
    GameRecord r;
    r.bots = {a, b};
    r.result.generations = 100;
    r.timing = std::array<MoveTiming, 2>{};
    (*r.timing)[0].moves = (*r.timing)[1].moves = 100;
    (*r.timing)[0].wall_total = std::chrono::milliseconds(100 * a_ms);
    (*r.timing)[1].wall_total = std::chrono::milliseconds(100 * b_ms);
    r.when = GameWhen{"2026-11-27T03:17:02Z", std::chrono::milliseconds(game_ms)};
    return r;
}

bool mentions(const TimeEstimate& e, const std::string& part) {
    return std::any_of(e.assumed.begin(), e.assumed.end(),
                       [&](const std::string& a) { return a.find(part) != std::string::npos; });
}

}  // namespace

TEST_CASE("time estimate: measured bots at their mean move, plus the runner's time per generation") {
    // fast 2 ms and slow 50 ms a move; the game took 5.5 s, of which 0.3 s outside the moves.
    const std::vector<GameRecord> stored = {record("fast", "slow", 2, 50, 5'500)};
    const TimeEstimate e = estimate_time({{"slow", "fast"}}, stored, 1000, 1000, 1);
    REQUIRE(e.game_seconds.size() == 1);
    // 1000 generations x (50 + 2 + 3) ms
    CHECK(e.game_seconds[0] == doctest::Approx(55.0));
    CHECK(e.total_seconds == doctest::Approx(55.0));
    CHECK(mentions(e, "slow 50.0 ms (100 moves)"));
    CHECK(mentions(e, "3.0 ms a generation"));
}

TEST_CASE("time estimate: a bot never measured takes the time limit, and says so") {
    const TimeEstimate e = estimate_time({{"new", "other"}}, {}, 10, 1000, 1);
    CHECK(e.game_seconds[0] == doctest::Approx(20.0));
    CHECK(mentions(e, "takes the whole time limit, 1000 ms"));
    CHECK(mentions(e, "new, other"));
    CHECK(mentions(e, "left out"));
}

TEST_CASE("time estimate: games spread over the workers, the first free taking the next") {
    const std::vector<GameRecord> stored = {record("a", "b", 10, 10, 2'000), record("c", "d", 40, 40, 8'000)};
    // 100 generations: a vs b 2 s, c vs d 8 s.
    const std::vector<std::array<std::string, 2>> games = {{"c", "d"}, {"a", "b"}, {"a", "b"}, {"a", "b"}};
    CHECK(estimate_time(games, stored, 100, 1000, 1).total_seconds == doctest::Approx(14.0));
    CHECK(estimate_time(games, stored, 100, 1000, 2).total_seconds == doctest::Approx(8.0));
    CHECK(estimate_time(games, stored, 100, 1000, 8).total_seconds == doctest::Approx(8.0));
}

TEST_CASE("time estimate: a time bank bounds each bot's moves in a game, and says so") {
    // slow takes 500 ms a move, 50 s in 100 generations; a 10 s bank holds it to 10 s, its last
    // move cut where the bank ends. fast's 0.2 s stays below its bank.
    const std::vector<GameRecord> stored = {record("fast", "slow", 2, 500, 50'200)};
    const TimeEstimate banked = estimate_time({{"slow", "fast"}}, stored, 100, 1000, 1, 10);
    CHECK(banked.game_seconds[0] == doctest::Approx(10.0 + 0.2));
    CHECK(mentions(banked, "at most its time bank, 10 s a game, a move at most what is left of it"));
    const TimeEstimate unbanked = estimate_time({{"slow", "fast"}}, stored, 100, 1000, 1);
    CHECK(unbanked.game_seconds[0] == doctest::Approx(50.0 + 0.2));
    CHECK_FALSE(mentions(unbanked, "time bank"));
}
