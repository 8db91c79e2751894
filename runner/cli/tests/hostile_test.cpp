// The hostile-bot suite: every kind of misbehaviour against a well-behaved opponent, through
// the real runner binary. After each: the runner finished the game, the result and the forfeit
// reason are the expected ones, nothing of the bot is left running, and the runner's own
// memory stayed bounded.
#include "runner/testing/runner_fixture.hpp"

#include <doctest/doctest.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>

using namespace gol::runner;
using gol::runner::testing::process_with;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

struct Hostile : testing::RunnerFixture {
    // Bots that leave processes behind make them sleep this long: a mark unique to this
    // fixture, so tests running at the same time do not see each other's.
    std::string marker = testing::unique_marker(31);

    Hostile() {
        // Hostile builds stay out of the cache the other tests share.
        cache = root.path() / "cache";
        testing::copy_marked(std::string(TEST_BOTS_DIR) + "/../hostile", bots, {{"31.4159", marker}});
        fs::copy(std::string(TEST_BOTS_DIR) + "/block.py", bots / "block.py");
    }
};

bool has_bubblewrap() { return std::filesystem::exists("/usr/bin/bwrap"); }

struct Case {
    const char* bot;
    const char* expect;  // a forfeit reason, or "ok" for a valid (empty) move
    std::vector<std::string> flags;
};

// The runner's peak memory must not grow with what a bot throws at it.
constexpr long kRunnerMemoryKb = 256 * 1024;

// The time limit of a case whose outcome is not about time: only a hang reaches it, so a move
// slowed down by the tests ctest runs beside it (a hundred children started under load) still
// has its own outcome.
constexpr const char* kHangLimit = "30000";

void play(Hostile& f, const Case& c, const std::vector<std::string>& common) {
    std::string bot = c.bot, expect = c.expect;
    CAPTURE(bot);
    CAPTURE(expect);
    // Every case's first move is the one judged: without the start-up allowance.
    std::vector<std::string> flags = {"--generations", "3", "--startup-limit", "0"};
    if (std::find(c.flags.begin(), c.flags.end(), "--time-limit") == c.flags.end())
        flags.insert(flags.end(), {"--time-limit", kHangLimit});
    flags.insert(flags.end(), common.begin(), common.end());
    flags.insert(flags.end(), c.flags.begin(), c.flags.end());
    RunOutcome r;
    json j = f.duel("block", c.bot, flags, &r);
    CHECK(r.max_rss_kb < kRunnerMemoryKb);
    // The hostile bot never places a cell: the block wins by extinction after one generation.
    CHECK(j["winner"] == "block");
    CHECK(j["reason"] == "extinction");
    CHECK(j["generations"] == 1);
    if (expect == "ok") {
        CHECK(j["forfeits"][c.bot] == 0);
    } else {
        CHECK(j["forfeits"][c.bot] == 1);
        CHECK(j["forfeit_reasons"][c.bot][c.expect] == 1);
    }
    CHECK_FALSE(process_with(f.marker));
    CHECK_FALSE(process_with(f.bots.string()));
}

}  // namespace

TEST_CASE("hostile bots: each misbehaviour has its exact outcome and leaves nothing behind") {
    const std::vector<Case> cases = {
        {"sleeper", "timeout", {"--time-limit", "300"}},
        {"busy", "timeout", {"--time-limit", "300"}},
        {"busy", "resource_limit", {"--cpu-limit", "1"}},
        {"lingering_child", "ok", {}},
        {"stdout_flood", "output_cap", {}},
        {"stderr_flood", "ok", {}},
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
        {"big_file", "resource_limit", {}},
    };
    Hostile f;
    f.extra_env = {"GOL_TEST_SECRET=hunter2"};
    // What this test is about is how the runner contains bots without the sandbox.
    for (const Case& c : cases) play(f, c, {"--no-sandbox"});
}

TEST_CASE("hostile bots in the sandbox: escapes, snooping, network and secrets all fail") {
    if (!has_bubblewrap()) {
        MESSAGE("bubblewrap is not installed: scripts/setup installs it");
        return;
    }
    Hostile f;
    f.extra_env = {"GOL_TEST_SECRET=hunter2"};
    fs::create_directories(f.root.path() / "results");
    std::ofstream(f.root.path() / "results" / "league.json") << "{}";

    // A loopback listener the network bot must not reach.
    int listener = ::socket(AF_INET, SOCK_STREAM, 0);
    REQUIRE(listener >= 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(::bind(listener, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
    REQUIRE(::listen(listener, 4) == 0);
    socklen_t len = sizeof addr;
    ::getsockname(listener, reinterpret_cast<sockaddr*>(&addr), &len);
    std::ofstream(f.bots / "net" / "port") << ntohs(addr.sin_port);

    const std::vector<Case> cases = {
        {"setsid_grandchild", "ok", {}},
        {"snoop", "ok", {}},
        {"host_paths", "ok", {}},
        {"net", "ok", {}},
        {"env_secret", "ok", {}},
        {"sleeper", "timeout", {"--time-limit", "300"}},
        {"hundred_children", "ok", {}},
        {"allocate_3g", "resource_limit", {}},
    };
    for (const Case& c : cases) play(f, c, {});  // a duel is sandboxed by default
    ::close(listener);
    CHECK_FALSE(fs::exists(f.bots / "planted.txt"));

    // Without the sandbox the same bots do get out: the checks above are not vacuous.
    RunOutcome open = f.runner({"duel", "block", "snoop", "--json", "--bots", f.bots.string(), "--width", "20",
                                "--height", "20", "--generations", "1", "--no-sandbox"});
    CHECK(json::parse(open.out)["forfeits"]["snoop"] == 1);
    open = f.runner({"duel", "block", "host_paths", "--json", "--bots", f.bots.string(), "--width", "20",
                     "--height", "20", "--generations", "1", "--no-sandbox"});
    CHECK(json::parse(open.out)["forfeits"]["host_paths"] == 1);
}
