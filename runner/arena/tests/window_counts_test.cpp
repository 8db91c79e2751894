// Counts per key over a window: they start again a window after their first, and the keys
// remembered are bounded.
#include "runner/arena/window_counts.hpp"

#include <doctest/doctest.h>

using namespace gol::runner;
using namespace std::chrono_literals;

TEST_CASE("window counts: a key's count within its window, then from nothing again") {
    WindowCounts counts(60s);
    const WindowCounts::Clock::time_point t0{};
    CHECK(counts.count("a", t0) == 0);
    counts.add("a", t0);
    counts.add("a", t0 + 30s);
    CHECK(counts.count("a", t0 + 59s) == 2);
    CHECK(counts.count("b", t0 + 59s) == 0);
    CHECK(counts.count("a", t0 + 60s) == 0);
    counts.add("a", t0 + 61s);
    CHECK(counts.count("a", t0 + 62s) == 1);
}

TEST_CASE("window counts: beyond the keys remembered, the oldest window is forgotten") {
    WindowCounts counts(60s, 2);
    const WindowCounts::Clock::time_point t0{};
    counts.add("a", t0);
    counts.add("b", t0 + 1s);
    counts.add("c", t0 + 2s);
    CHECK(counts.count("a", t0 + 3s) == 0);
    CHECK(counts.count("b", t0 + 3s) == 1);
    CHECK(counts.count("c", t0 + 3s) == 1);
}
