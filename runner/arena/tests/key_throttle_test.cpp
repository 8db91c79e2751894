// Guessing keys: an address wrong too often is locked out for a doubling time, a guessed name is
// checked only for addresses never wrong, and what is remembered stays bounded.
#include "runner/arena/key_throttle.hpp"

#include <doctest/doctest.h>

using namespace gol::runner;
using namespace std::chrono_literals;

TEST_CASE("key throttle: an address locked out after its free tries, for a time that doubles") {
    KeyThrottle t;
    const KeyThrottle::Clock::time_point now{};
    for (int i = 0; i < 5; ++i) {
        CHECK_FALSE(t.refusal("10.0.0.1", "alice", now));
        t.wrong("10.0.0.1", "alice", true, now);
    }
    CHECK_FALSE(t.refusal("10.0.0.1", "alice", now));
    t.wrong("10.0.0.1", "alice", true, now);
    REQUIRE(t.refusal("10.0.0.1", "alice", now));
    CHECK(t.refusal("10.0.0.1", "alice", now)->starts_with("too many wrong secrets from 10.0.0.1: not checked for 1 s"));
    CHECK_FALSE(t.refusal("10.0.0.1", "alice", now + 1s));
    t.wrong("10.0.0.1", "alice", true, now + 1s);
    CHECK(t.refusal("10.0.0.1", "alice", now + 2500ms));
    CHECK_FALSE(t.refusal("10.0.0.1", "alice", now + 3s));
    // Another address is not touched.
    CHECK_FALSE(t.refusal("10.0.0.2", "bob", now));
}

TEST_CASE("key throttle: a guessed name is checked only for addresses that were never wrong") {
    KeyThrottle t;
    const KeyThrottle::Clock::time_point now{};
    for (int i = 0; i < 10; ++i) t.wrong("10.1.0." + std::to_string(i), "alice", true, now);
    CHECK(t.refusal("10.1.0.3", "alice", now + 1s));
    CHECK(t.refusal("10.1.0.3", "alice", now + 1s)->find("is being guessed") != std::string::npos);
    CHECK_FALSE(t.refusal("10.2.0.1", "alice", now + 1s));  // the owner's own address
    CHECK_FALSE(t.refusal("10.1.0.3", "bob", now + 1s));
    // Names not in the keys file are not remembered: the guard is per known name.
    for (int i = 0; i < 20; ++i) t.wrong("10.3.0." + std::to_string(i), "nobody", false, now);
    CHECK_FALSE(t.refusal("10.3.0.1", "nobody", now));
    // A window later the guard is gone.
    CHECK_FALSE(t.refusal("10.1.0.3", "alice", now + 61s));
}

TEST_CASE("key throttle: the addresses remembered are bounded, the oldest forgotten") {
    KeyThrottleLimits limits;
    limits.max_addresses = 3;
    limits.free_tries = 0;
    KeyThrottle t(limits);
    const KeyThrottle::Clock::time_point now{};
    for (int i = 0; i < 4; ++i) t.wrong("10.0.0." + std::to_string(i), "x", false, now + std::chrono::seconds(i));
    CHECK_FALSE(t.refusal("10.0.0.0", "x", now + 3s));  // forgotten
    CHECK(t.refusal("10.0.0.3", "x", now + 3s));
}
