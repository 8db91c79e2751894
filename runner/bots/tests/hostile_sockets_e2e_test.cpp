// Socket memory through the real runner: a bot that holds TCP buffers over its sandbox's own
// loopback is held to its memory limit by its control group (issue 39: on cgroup v1 it held
// 1.9 GiB under --memory-limit 64, and two such bots exhausted the host's tcp_mem).
#include "runner/sandbox/control_group.hpp"
#include "runner/sandbox/sandbox.hpp"
#include "runner/testing/runner_fixture.hpp"

#include <doctest/doctest.h>

using namespace gol::runner;
using namespace gol::runner::testing;
namespace fs = std::filesystem;

TEST_CASE("hostile sockets e2e: TCP buffers over the sandbox's loopback are held to the bot's memory limit") {
    if (!Sandbox::find_bubblewrap() || !ControlGroups().holds("memory")) {
        MESSAGE("no sandbox with a memory control group here: socket memory is not held");
        return;
    }
    RunnerFixture f;
    f.add_test_bots({"block.py"});
    fs::copy_file(fs::path(TEST_BOTS_DIR) / ".." / "hostile" / "tcp_hoard.py", f.bots / "tcp_hoard.py");
    const fs::path log = f.root.path() / "log.txt";
    const nlohmann::json j = f.duel(
        "block", "tcp_hoard", {"--generations", "1", "--memory-limit", "64", "--time-limit", "30000", "--log", log.string()});
    const std::string text = read_text(log);
    INFO("log: " << text);
    CHECK(j["forfeits"]["tcp_hoard"] == 0);
    // It held some: the connections were made and written to.
    CHECK(contains(text, "MiB of socket buffers"));
}
