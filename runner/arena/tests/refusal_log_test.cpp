// A flood of closed connections costs a few lines per address and interval, then one line that counts the rest.
#include "runner/arena/refusal_log.hpp"
#include "runner/sys/temp_dir.hpp"
#include "runner/testing/runner_fixture.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>

using namespace gol::runner;
using namespace std::chrono_literals;

namespace {

std::string count_lines(const std::string& text) { return std::to_string(std::count(text.begin(), text.end(), '\n')); }

}  // namespace

TEST_CASE("refusal log: the first lines in full, the rest in one line per address per interval") {
    TempDir dir("refusal-log");
    const std::filesystem::path file = dir.path() / "log";
    {
        std::FILE* out = std::fopen(file.c_str(), "w");
        REQUIRE(out);
        RefusalLog log(out, 10'000ms, 2, 2);
        const RefusalLog::Clock::time_point t0{};
        for (int i = 0; i < 1000; ++i) log.closed("10.0.0.1", "10.0.0.1:" + std::to_string(i) + ": closed", "slow", t0);
        log.closed("10.0.0.1", "10.0.0.1:9: closed", "wrong key", t0 + 1s);
        log.closed("10.0.0.2", "10.0.0.2:1: closed", "slow", t0 + 1s);
        // Beyond the addresses kept apart, all are counted together.
        log.closed("10.0.0.3", "10.0.0.3:1: closed", "slow", t0 + 1s);
        log.closed("10.0.0.4", "10.0.0.4:1: closed", "slow", t0 + 1s);
        REQUIRE(log.next_flush());
        CHECK(*log.next_flush() == t0 + 10s);
        log.flush(t0 + 5s);
        log.flush(t0 + 10s);
        log.flush(t0 + 11s, true);
        std::fclose(out);
    }
    const std::string text = gol::runner::testing::read_text(file);
    CHECK(count_lines(text) == "5");
    CHECK(text.find("arena: 10.0.0.1:0: closed\narena: 10.0.0.1:1: closed\n") != std::string::npos);
    CHECK(text.find("arena: 10.0.0.1: 999 more connections closed in 10000 ms without a line each: 998 slow, 1 wrong key\n") !=
          std::string::npos);
    CHECK(text.find("arena: 10.0.0.2:1: closed\n") != std::string::npos);
    CHECK(text.find("arena: other addresses: 2 more connections closed in 10000 ms without a line each: 2 slow\n") !=
          std::string::npos);
}
