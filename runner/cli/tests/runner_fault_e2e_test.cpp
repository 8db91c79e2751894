// End to end: a fault of the runner's own machinery (bubblewrap that cannot make a bot's
// sandbox, a launcher that is missing) stops the duel, the check or the league with exit status 1
// and its cause; it is never a forfeit of the bots, and a league stores nothing of the game.
#include "runner/testing/runner_fixture.hpp"

#include <doctest/doctest.h>

#include <filesystem>

using namespace gol::runner;
using gol::runner::testing::contains;
namespace fs = std::filesystem;

namespace {

// Two single-file bots in `bots`, and an --interpreter folder beside them: each bot's folder is
// shown read-only, so bubblewrap cannot make the interpreter's mount point inside it.
struct Fixture : testing::RunnerFixture {
    fs::path interpreter = bots / "interp";
    Fixture() {
        add_test_bots({"idle.sh", "block.py"});
        fs::create_directories(interpreter / "bin");
    }

    RunOutcome run(std::vector<std::string> args) {
        const std::vector<std::string> common = {"--cache", cache.string(), "--width", "20", "--height", "20",
                                                 "--generations", "5", "--interpreter", interpreter.string()};
        args.insert(args.end(), common.begin(), common.end());
        return runner(args);
    }
};

}  // namespace

TEST_CASE("runner faults: bubblewrap that cannot start a bot's launcher stops a duel, a check and a league") {
    Fixture f;
    const std::string idle = (f.bots / "idle.sh").string(), block = (f.bots / "block.py").string();

    const RunOutcome duel = f.run({"duel", idle, block, "--json"});
    INFO("duel: " << duel.out << duel.err);
    CHECK(duel.exit_status == 1);
    CHECK(duel.out.empty());  // no result, not a draw of two forfeiting bots
    CHECK(contains(duel.err, "runner: error: stopped by a fault of the runner's, not of a bot (no result kept): "));
    CHECK(contains(duel.err, "launcher ended before it was ready"));
    CHECK(contains(duel.err, "bwrap"));

    const RunOutcome check = f.run({"check", block, "--runs", "1"});
    INFO("check: " << check.out << check.err);
    CHECK(check.exit_status == 1);
    CHECK(contains(check.err, "runner: error: stopped by a fault of the runner's, not of a bot (no result kept): "));
    CHECK_FALSE(contains(check.out, "could_not_start"));

    const fs::path results = f.root.path() / "results";
    const RunOutcome league = f.run({"league", f.bots.string(), "--results", results.string(), "--quiet"});
    INFO("league: " << league.out << league.err);
    CHECK(league.exit_status == 1);
    CHECK(contains(league.err, "could not play "));
    CHECK((contains(league.err, "idle vs block") || contains(league.err, "block vs idle")));
    CHECK(contains(league.err, "(nothing of it stored)"));
    // Both games are named, or the one that failed and the other not started.
    CHECK(((contains(league.err, "idle vs block") && contains(league.err, "block vs idle")) ||
           contains(league.err, "nor 1 other game")));
    CHECK((!fs::exists(results / "games") || fs::is_empty(results / "games")));
}

TEST_CASE("runner faults: a runner without its launcher says so and plays nothing") {
    Fixture f;
    // The runner's binary alone, with none of the helpers it finds beside it.
    fs::create_directories(f.root.path() / "bin");
    const fs::path alone = f.root.path() / "bin" / "runner";
    fs::copy_file(RUNNER_BIN, alone);
    SpawnSpec spec;
    spec.argv = {alone.string(), "duel", (f.bots / "idle.sh").string(), (f.bots / "block.py").string(), "--no-sandbox",
                 "--cache",      f.cache.string(), "--generations", "5", "--width", "20", "--height", "20"};
    spec.env = std::vector<std::string>{"PATH=/usr/bin:/bin", "TMPDIR=" + f.root.path().string()};
    spec.cwd = f.root.path();
    spec.timeout = std::chrono::seconds(120);
    const RunOutcome r = run_process(spec);
    INFO(r.out << r.err);
    CHECK(r.exit_status == 1);
    CHECK(r.out.empty());
    CHECK(contains(r.err, "runner: error: stopped by a fault of the runner's, not of a bot (no result kept): "));
    CHECK(contains(r.err, "gol-launcher"));
}
