// A persistent bot that floods stdout without a newline, through the real runner: the flood
// costs it that move (output_cap) and its process, the next move starts a fresh one, and the
// runner reads no more than the cap.
#include "runner/testing/runner_fixture.hpp"

#include <doctest/doctest.h>

using namespace gol::runner;
using gol::runner::testing::process_with;
using gol::runner::testing::read_text;
namespace fs = std::filesystem;

TEST_CASE("persistent: a bot overflowing stdout forfeits that move with output_cap, and a fresh process plays on") {
    testing::RunnerFixture f;
    fs::create_directories(f.bots / "spew");
    fs::copy(fs::path(TEST_BOTS_DIR) / "block.py", f.bots / "block.py");
    // The marker, an argument the script ignores, finds its processes.
    const std::string marker = testing::unique_marker(61);
    std::ofstream(f.bots / "spew" / "bot.json")
        << R"({"run": ["python3", "main.py", ")" << marker << R"("], "protocol": "persistent"})";
    // By tick, not by line, so that the restarted process answers as the first would have.
    std::ofstream(f.bots / "spew" / "main.py")
        << "import json, sys\n"
           "for line in sys.stdin:\n"
           "    state = json.loads(line)\n"
           "    if state['tick_id'] == 0:\n"
           "        y = 2 if state['bot_id'] == 1 else 8\n"
           "        print(json.dumps([[y, 12], [y, 13], [y + 1, 12], [y + 1, 13]]), flush=True)\n"
           "    elif state['tick_id'] == 1:\n"
           "        sys.stdout.write('x' * (8 << 20))\n"
           "        sys.stdout.flush()\n"
           "    else:\n"
           "        print('[]', flush=True)\n";
    const fs::path log = f.root.path() / "game.log";
    RunOutcome r;
    const nlohmann::json j = f.duel("block", "spew", {"--generations", "4", "--log", log.string()}, &r);
    CHECK(j["reason"] == "generations");
    CHECK(j["winner"].is_null());  // both blocks stand: the flood cost a move, not the game
    CHECK(j["cells"]["spew"] == 4);
    CHECK(j["forfeits"]["spew"] == 1);
    CHECK(j["forfeit_reasons"]["spew"]["output_cap"] == 1);
    CHECK(read_text(log).find("more than 1048576 bytes without a newline") != std::string::npos);
    CHECK(r.max_rss_kb < 256 * 1024);  // the 8 MiB line was not kept
    CHECK_FALSE(process_with(marker));
}
