// The hostile-bot suite: every kind of misbehaviour against a well-behaved opponent, through
// the real runner binary. After each: the runner finished the game, the result and the forfeit
// reason are the expected ones, nothing of the bot is left running, and the runner's own
// memory stayed bounded.
#include "runner_fixture.hpp"

#include <doctest/doctest.h>

using namespace gol::runner;
using gol::runner::testing::process_with;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

struct Hostile : testing::RunnerFixture {
    Hostile() {
        fs::copy(std::string(TEST_BOTS_DIR) + "/../hostile", bots, fs::copy_options::recursive);
        fs::copy(std::string(TEST_BOTS_DIR) + "/block.py", bots / "block.py");
    }
};

struct Case {
    const char* bot;
    const char* expect;  // a forfeit reason, or "ok" for a valid (empty) move
    std::vector<std::string> flags;
};

// The runner's peak memory must not grow with what a bot throws at it.
constexpr long kRunnerMemoryKb = 256 * 1024;

}  // namespace

TEST_CASE("hostile bots: each misbehaviour has its exact outcome and leaves nothing behind") {
    const std::vector<Case> cases = {
        {"sleeper", "timeout", {"--time-limit", "300"}},
        {"busy", "timeout", {"--time-limit", "300"}},
        {"busy", "resource_limit", {"--time-limit", "5000", "--cpu-limit", "1"}},
        {"lingering_child", "ok", {}},
        {"stdout_flood", "output_cap", {}},
        {"stderr_flood", "ok", {"--time-limit", "5000"}},
        {"garbage", "not_json", {}},
        {"truncated", "not_json", {}},
        {"nested", "not_pairs", {}},
        {"huge_numbers", "ok", {}},
        {"object", "not_pairs", {}},
        {"triples", "not_pairs", {}},
        {"strings", "not_pairs", {}},
        {"null", "not_pairs", {}},
        {"float_coords", "non_integer", {}},
        {"too_many_cells", "too_many_cells", {}},
        {"segfault", "signal", {}},
        {"exit_after_reply", "exit_status", {}},
        {"allocate_3g", "resource_limit", {}},
        {"hundred_children", "ok", {}},
        {"reads_stdin", "ok", {}},
        {"env_secret", "ok", {}},
        {"big_file", "resource_limit", {"--time-limit", "5000"}},
    };
    Hostile f;
    f.extra_env = {"GOL_TEST_SECRET=hunter2"};
    for (const Case& c : cases) {
        std::string bot = c.bot, expect = c.expect;
        CAPTURE(bot);
        CAPTURE(expect);
        std::vector<std::string> args = {"duel", "block", c.bot, "--json", "--bots", f.bots.string(), "--cache",
                                         f.cache.string(), "--width", "20", "--height", "20", "--generations", "3"};
        args.insert(args.end(), c.flags.begin(), c.flags.end());
        RunOutcome r = f.runner(args);
        INFO("stderr: " << r.err);
        REQUIRE(r.kind == RunOutcome::Kind::exited);
        REQUIRE(r.exit_status == 0);
        CHECK(r.max_rss_kb < kRunnerMemoryKb);
        json j = json::parse(r.out);
        // The hostile bot never places a cell: the block wins by extinction after one generation.
        CHECK(j["winner"] == "block");
        CHECK(j["reason"] == "extinction");
        CHECK(j["generations"] == 1);
        if (std::string(c.expect) == "ok") {
            CHECK(j["forfeits"][c.bot] == 0);
        } else {
            CHECK(j["forfeits"][c.bot] == 1);
            CHECK(j["forfeit_reasons"][c.bot][c.expect] == 1);
        }
        CHECK_FALSE(process_with("31.4159"));
        CHECK_FALSE(process_with(f.bots.string()));
    }
}
