// Issue 39's attacks by a bot on what the runner runs, counts and logs, through the real runner.
// Code a bot plants in its writable $HOME for the next warm interpreter to load (a Python .pth
// file, a Ruby gem of a higher version), then kills its interpreter so that a new one starts: the
// new interpreter must load none of it, in and out of the sandbox; a cold move, the bot's own
// process, may (the control: the plant is real). CPU time hidden in a child the move never waits
// for, where no control group counts the move's tree. And stderr that forges the runner's own
// lines in a game's log.
#include "runner/testing/runner_fixture.hpp"

#include <doctest/doctest.h>

#include <fstream>

using namespace gol::runner;
using namespace gol::runner::testing;
namespace fs = std::filesystem;

namespace {

// Each move says on stderr whether it runs warm and whether the planted code has run; move 0
// plants it and, warm, kills its interpreter.
constexpr const char* kPythonPlant = R"(import sys
warm = "heapq" in sys.modules
import os, signal, site
home = os.environ["HOME"]
planted = os.path.exists(os.path.join(home, "planted-ran"))
step = os.path.join(home, "step")
n = int(open(step).read()) if os.path.exists(step) else 0
open(step, "w").write(str(n + 1))
sys.stderr.write("move %d warm: %s planted: %s\n" % (n, "yes" if warm else "no", "yes" if planted else "no"))
print("[]")
sys.stdout.flush()
if n == 0:
    folder = site.getusersitepackages()
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "plant.pth"), "w") as f:
        f.write("import os; open(os.path.join(os.environ['HOME'], 'planted-ran'), 'w').close()\n")
    if warm:
        os.kill(os.getppid(), signal.SIGKILL)
)";

constexpr const char* kRubyPlant = R"(warm = !!defined?(Fiddle)
home = ENV["HOME"]
planted = File.exist?(File.join(home, "planted-ran"))
step = File.join(home, "step")
n = File.exist?(step) ? File.read(step).to_i : 0
File.write(step, (n + 1).to_s)
$stderr.puts "move #{n} warm: #{warm ? 'yes' : 'no'} planted: #{planted ? 'yes' : 'no'}"
require "json"
puts "[]"
$stdout.flush
if n == 0
  require "fileutils"
  lib = File.join(Gem.user_dir, "gems", "json-99.0.0", "lib")
  specs = File.join(Gem.user_dir, "specifications")
  FileUtils.mkdir_p([lib, specs])
  File.write(File.join(lib, "json.rb"), "File.write(File.join(ENV['HOME'], 'planted-ran'), '')\nmodule JSON; end\n")
  File.write(File.join(specs, "json-99.0.0.gemspec"),
             "Gem::Specification.new { |s| s.name = 'json'; s.version = '99.0.0'; s.summary = 'x'; " \
             "s.authors = ['x']; s.files = ['lib/json.rb']; s.require_paths = ['lib'] }\n")
  Process.kill("KILL", Process.ppid) if warm
end
)";

// The duel's --log after `bot` played idle.sh for 5 generations, warm or cold. Its moves are
// quick; the time limit is long so that none is cut short on a loaded machine, where a move cut
// short would say nothing of the plant.
std::string plant_log(RunnerFixture& f, const std::string& bot, const std::string& sandbox, bool cold) {
    const fs::path log = f.root.path() / (bot + (cold ? ".cold.log" : ".warm.log"));
    std::vector<std::string> extra = {sandbox, "--log", log.string(), "--time-limit", "10000"};
    if (cold) extra.push_back("--cold");
    f.duel(bot, "idle.sh", extra);
    return read_text(log);
}

// Burns 0.6 s of CPU in a child it never waits for and 0.6 s itself: 1.2 s in all, under a
// 1000 ms CPU-time limit (each process well within its own RLIMIT_CPU of 2 s). The child's end is
// told through a pipe, and the child left a zombie.
constexpr const char* kHiddenChild = R"(import os, time
def burn(seconds):
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass
done, tell = os.pipe()
if os.fork() == 0:
    burn(0.6)
    os.write(tell, b"x")
    os._exit(0)
burn(0.6)
os.read(done, 1)
print("[]")
)";

}  // namespace

TEST_CASE("bot attacks e2e: code a bot plants in its HOME never reaches a new warm interpreter") {
    for (const std::string sandbox : {"--no-sandbox", "--sandbox"}) {
        CAPTURE(sandbox);
        RunnerFixture f;
        f.add_test_bots({"idle.sh"});
        std::ofstream(f.bots / "plant_py.py") << kPythonPlant;
        std::ofstream(f.bots / "plant_rb.rb") << kRubyPlant;
        for (const std::string bot : {"plant_py.py", "plant_rb.rb"}) {
            CAPTURE(bot);
            const std::string warm = plant_log(f, bot, sandbox, false);
            INFO("warm log: " << warm);
            // Warm after its interpreter was killed, and the plant never ran.
            CHECK(contains(warm, "move 0 warm: yes planted: no"));
            CHECK(contains(warm, "move 2 warm: yes planted: no"));
            CHECK(contains(warm, "move 4 warm: yes planted: no"));
            CHECK_FALSE(contains(warm, "planted: yes"));
            // The plant is real: a cold move, which is the bot's own interpreter, loads it.
            const std::string cold = plant_log(f, bot, sandbox, true);
            INFO("cold log: " << cold);
            CHECK(contains(cold, "move 4 warm: no planted: yes"));
        }
    }
}

TEST_CASE("bot attacks e2e: without a control group, CPU mode counts a child the move never waited for") {
    RunnerFixture f;
    f.add_test_bots({"idle.sh"});
    std::ofstream(f.bots / "hidden_child.py") << kHiddenChild;
    for (bool cold : {false, true}) {
        CAPTURE(cold);
        const fs::path log = f.root.path() / (cold ? "cold.log" : "warm.log");
        std::vector<std::string> extra = {"--no-sandbox", "--time-mode", "cpu", "--time-limit", "1000", "--cpu-limit",
                                          "2", "--startup-limit", "0", "--generations", "2", "--log", log.string()};
        if (cold) extra.push_back("--cold");
        const nlohmann::json r = f.duel("hidden_child.py", "idle.sh", extra);
        CHECK(r["forfeits"]["hidden_child"] == 2);
        // Over the limit by its CPU time, both moves: not by the wall clock's backstop.
        const std::string text = read_text(log);
        INFO("log: " << text);
        for (const char* tick : {"tick 0", "tick 1"})
            CHECK(contains(text, std::string(tick) + " seat 1 (hidden_child): forfeit timeout: the bot used "));
        const std::string by_cpu = " ms of CPU time, over its limit of 1000 ms per move";
        const std::size_t first = text.find(by_cpu);
        REQUIRE(first != std::string::npos);
        CHECK(text.find(by_cpu, first + 1) != std::string::npos);
    }
}

TEST_CASE("bot attacks e2e: a bot's stderr never reads as the runner's own line in a duel's log") {
    RunnerFixture f;
    f.add_test_bots({"idle.sh"});
    std::ofstream(f.bots / "forger.sh") << "printf 'tick 0 seat 2 (idle): forfeit timeout: forged\\n\\nline two' >&2\n"
                                           "echo '[]'\n";
    const fs::path log = f.root.path() / "duel.log";
    f.duel("forger.sh", "idle.sh", {"--log", log.string(), "--generations", "1"});
    CHECK(read_text(log) == "tick 0 seat 1 (forger) stderr:\n"
                            "  | tick 0 seat 2 (idle): forfeit timeout: forged\n"
                            "  | \n"
                            "  | line two\n");
}
