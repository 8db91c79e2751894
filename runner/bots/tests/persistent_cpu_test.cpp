// A persistent bot's CPU: its processes are all stopped while its opponent moves, and its CPU
// time per move is limited as other bots' is. Through the real runner, with and without the
// sandbox; nothing of either bot is left after the game.
#include "runner/testing/runner_fixture.hpp"

#include "runner/sandbox/sandbox.hpp"

#include <doctest/doctest.h>
#include <unistd.h>

#include <functional>
#include <map>
#include <sstream>

using namespace gol::runner;
using gol::runner::testing::process_with;
using gol::runner::testing::read_text;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

struct CpuFixture : testing::RunnerFixture {
    // In the command lines of the bots' processes: unique to this fixture, so tests running at
    // the same time, or an earlier one here, do not see each other's. (The fixture's path is in
    // the runner's command line, so it cannot serve.)
    std::string marker = "cpuspin" + std::to_string(::getpid()) + "x" +
                         std::to_string(std::hash<std::string>{}(root.path().string()));

    CpuFixture() {
        const fs::path tests = fs::path(TEST_BOTS_DIR).parent_path();
        fs::create_directories(bots);
        for (const char* bot : {"cpu_freeze", "cpu_burn"})
            fs::copy(tests / "hostile" / bot, bots / bot, fs::copy_options::recursive);
        for (const char* bot : {"cpu_watch.py", "idle.sh", "nap.sh"}) fs::copy(tests / "bots" / bot, bots / bot);
        for (const auto& entry : fs::recursive_directory_iterator(bots)) {
            if (!entry.is_regular_file()) continue;
            std::string text = read_text(entry.path());
            for (std::size_t at; (at = text.find("CPU_MARKER")) != std::string::npos;) text.replace(at, 10, marker);
            std::ofstream(entry.path()) << text;
        }
    }
};

bool sandbox_works() {
    static const bool works = Sandbox::find_bubblewrap().has_value();
    return works;
}

// The CPU seconds named in a forfeit "... CPU time limit of N s per move (used X s) ..." in a game's
// log; -1 when there is none.
double cpu_used_in(const std::string& log, int limit_s) {
    const std::string lead = "forfeit resource_limit: the bot went over its CPU time limit of " + std::to_string(limit_s) +
                             " s per move (used ";
    const std::size_t at = log.find(lead);
    if (at == std::string::npos) return -1;
    return std::stod(log.substr(at + lead.size()));
}

}  // namespace

TEST_CASE("persistent cpu: every process of a persistent bot is stopped while its opponent moves") {
    CpuFixture f;
    // The opponent looks at the freezing bot's spinning processes through /proc: the host's,
    // so this runs unsandboxed, and cold (a warm python3 has a /proc of its namespace's own).
    json j = f.duel("cpu_freeze", "cpu_watch", {"--generations", "5", "--time-limit", "5000", "--cold", "--no-sandbox"});
    CHECK(j["generations"] == 5);
    // cpu_freeze forfeits a move after which its spinning processes took CPU time.
    CHECK(j["forfeits"]["cpu_freeze"] == 0);
    CHECK(j["forfeits"]["cpu_watch"] == 0);

    // Each of cpu_watch's five moves saw the child, the orphan and the child in its own session,
    // each stopped (T).
    std::map<std::string, int> seen;
    std::istringstream states(read_text(f.bots / "cpu_watch_states.txt"));
    for (std::string tag, state; states >> tag >> state;) {
        CAPTURE(tag);
        CHECK(state == "T");
        ++seen[tag];
    }
    CHECK(seen == std::map<std::string, int>{{f.marker + "-child", 5}, {f.marker + "-orphan", 5},
                                             {f.marker + "-session", 5}});
    CHECK_FALSE(process_with(f.marker));
}

TEST_CASE("persistent cpu: in the sandbox too, the bot's processes are stopped between its moves") {
    if (!sandbox_works()) {
        MESSAGE("bubblewrap does not work here: scripts/setup installs it");
        return;
    }
    CpuFixture f;
    // The opponent naps 0.3 s on each move: time the spinning processes would take if they
    // were not frozen (by the bot's control group when the runner can make one, else by its
    // launcher's signals).
    std::ofstream(f.bots / "long_nap.sh") << "sleep 0.3\necho '[]'\n";
    json j = f.duel("cpu_freeze", "long_nap", {"--generations", "5", "--sandbox"});
    CHECK(j["generations"] == 5);
    CHECK(j["forfeits"]["cpu_freeze"] == 0);
    CHECK(j["forfeits"]["long_nap"] == 0);
    CHECK_FALSE(process_with(f.marker));
}

TEST_CASE("persistent cpu: a move over the CPU limit forfeits, though within the time limit") {
    std::vector<std::vector<std::string>> modes = {{"--no-sandbox"}};
    if (sandbox_works()) modes.push_back({});
    for (const auto& mode : modes) {
        CAPTURE(mode.size());
        CpuFixture f;
        const fs::path log = f.root.path() / "game.log";
        std::vector<std::string> flags = {"--generations", "1", "--time-limit", "30000", "--cpu-limit", "1",
                                          "--startup-limit", "0", "--log", log.string()};
        flags.insert(flags.end(), mode.begin(), mode.end());
        json j = f.duel("idle", "cpu_burn", flags);
        CHECK(j["forfeits"]["cpu_burn"] == 1);
        CHECK(j["forfeit_reasons"]["cpu_burn"]["resource_limit"] == 1);
        CHECK(j["forfeits"]["idle"] == 0);
        const std::string text = read_text(log);
        INFO("log: " << text);
        // The bot spent 2 s of CPU time by its own clock; /proc counts in rounded-down ticks.
        CHECK(cpu_used_in(text, 1) >= 1.95);
        CHECK_FALSE(process_with(f.marker));
    }
}
