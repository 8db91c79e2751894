// Hostile bots' files and builds, through the real runner, sandboxed and not: what a bot's
// folder holds and what its build makes are held to the caps of docs/sandbox.md, and a bot over
// them is refused with the cap named, before any game.
#include "runner/sandbox/sandbox.hpp"
#include "runner/testing/memory_folder.hpp"
#include "runner/testing/runner_fixture.hpp"

#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <string>
#include <vector>

using namespace gol::runner;
using namespace gol::runner::testing;
namespace fs = std::filesystem;

namespace {

struct HostileFiles : RunnerFixture {
    // The bots' trees of tens of thousands of folders, and the cache their builds fill.
    TempDir memory = searchable(TempDir("hostile-files", memory_folder(root.path())));

    HostileFiles() {
        cache = memory.path() / "cache";  // hostile builds stay out of the shared cache
        add_test_bots({"block.py"});
    }

    // A manifest bot `name` that answers `[]`, with `build` when given; in the memory folder,
    // named by its path.
    fs::path manifest_bot(const std::string& name, const std::string& build = {}) {
        const fs::path dir = memory.path() / name;
        fs::create_directories(dir);
        std::ofstream(dir / "bot.json") << R"({"run": ["sh", "run.sh"])"
                                        << (build.empty() ? "" : R"(, "build": ")" + build + "\"") << "}";
        std::ofstream(dir / "run.sh") << "echo '[]'\n";
        return dir;
    }

    // `runner duel block BOT`, which must stop before its game: exit status 2. Its stderr.
    std::string refused(const std::string& bot, const std::string& sandbox) {
        RunOutcome r = runner({"duel", "block", bot, "--json", "--bots", bots.string(), "--cache", cache.string(),
                               "--width", "20", "--height", "20", "--generations", "1", sandbox});
        INFO("stdout: " << r.out);
        INFO("stderr: " << r.err);
        CHECK(r.exit_status == 2);
        CHECK(r.out.empty());
        return r.err;
    }

    // A game of the one-move bot `bot` against the block: its forfeits by reason.
    nlohmann::json forfeits(const std::string& bot, const std::string& sandbox) {
        nlohmann::json j = duel("block", bot, {"--generations", "1", "--time-limit", "30000", sandbox});
        return j["forfeit_reasons"][bot];
    }
};

bool has_bubblewrap() { return Sandbox::find_bubblewrap().has_value(); }

std::vector<std::string> sandbox_modes() {
    if (has_bubblewrap()) return {"--no-sandbox", "--sandbox"};
    MESSAGE("bubblewrap is not installed (scripts/setup installs it): sandboxed runs left out");
    return {"--no-sandbox"};
}

}  // namespace

// Issue 39: 20000 empty folders made a duel take 4.1 s instead of 0.12 s, copied for every run.
TEST_CASE("hostile files e2e: folders count toward a bot's 10000 files: 20000 empty folders are refused") {
    HostileFiles f;
    const fs::path bot = f.manifest_bot("folders");
    int made = 0;
    for (int i = 0; i < 20000; ++i) made += ::mkdir((bot / ("d" + std::to_string(i))).c_str(), 0755) == 0;
    REQUIRE(made == 20000);
    for (const std::string& sandbox : sandbox_modes()) {
        CAPTURE(sandbox);
        const std::string err = f.refused(bot.string(), sandbox);
        CHECK(contains(err, "more than 10000 files, folders and links, the most a bot may have"));
    }
}

// Whether a sandboxed build's folder is a bounded filesystem here: a root runner mounts it.
bool bounded_builds(const std::string& sandbox) { return sandbox == "--sandbox" && ::geteuid() == 0; }

// What a build that ran out of its bounded folder's space is told.
const std::string kBuildSpace = "(no space left: in the sandbox a build's folder holds at most 1024 MiB and 20000 "
                                "files, folders and links, and its /tmp 64 MiB and 10000; docs/sandbox.md)";

// Issue 39: a build that made 50000 folders was cached and copied on every run. In the sandbox
// its folder's inodes run out first; without it, the cache's cap refuses what it left.
TEST_CASE("hostile files e2e: a build that makes 50000 folders is refused and nothing is cached") {
    HostileFiles f;
    const fs::path bot = f.manifest_bot("build_folders", "seq 50000 | xargs mkdir");
    for (const std::string& sandbox : sandbox_modes()) {
        CAPTURE(sandbox);
        const std::string err = f.refused(bot.string(), sandbox);
        if (bounded_builds(sandbox)) {
            CHECK(contains(err, "mkdir: cannot create directory"));
            CHECK(contains(err, "No space left on device"));
            CHECK(contains(err, kBuildSpace));
        } else {
            CHECK(contains(err, "more than 10000 files, folders and links"));
            CHECK(contains(err, "nothing was cached"));
        }
        CHECK(fs::is_empty(f.cache / "builds"));
    }
}

// Issue 39: four 1000 MB files of a build went to the host's disk; only what the cache keeps was
// capped, after the build.
TEST_CASE("hostile files e2e: a sandboxed build writes on a bounded filesystem: four 1000 MB files fail at its cap") {
    if (!has_bubblewrap() || ::geteuid() != 0) {
        MESSAGE("a build's folder is bounded in the sandbox of a root runner only");
        return;
    }
    HostileFiles f;
    const fs::path bot = f.manifest_bot(
        "build_fill", "fallocate -l 1000M a && fallocate -l 1000M b && fallocate -l 1000M c && fallocate -l 1000M d");
    const std::string err = f.refused(bot.string(), "--sandbox");
    CHECK(contains(err, "fallocate: fallocate failed: No space left on device"));
    CHECK(contains(err, kBuildSpace));
    CHECK(fs::is_empty(f.cache / "builds"));
}

// The sandbox's scratch folder is a tmpfs whose inode limit counts folders as files (a root
// runner's; without the sandbox it is a folder of the host's disk, bounded only per file).
TEST_CASE("hostile files e2e: a bot's 20000 folders in its scratch folder stop at the sandbox's 10000 inodes") {
    if (!has_bubblewrap() || ::geteuid() != 0) {
        MESSAGE("the scratch folder has an inode limit in the sandbox of a root runner only");
        return;
    }
    HostileFiles f;
    // It answers only when the folder's inodes (its own among them), and nothing else, stopped it.
    std::ofstream(f.bots / "scratch_folders.py")
        << "import errno, os, sys\n"
           "made = 0\n"
           "for i in range(20000):\n"
           "    try:\n"
           "        os.mkdir(os.path.join(os.environ['GOL_SCRATCH'], 'd%d' % i))\n"
           "    except OSError as e:\n"
           "        if e.errno == errno.ENOSPC and 9990 <= made < 10000:\n"
           "            print('[]')\n"
           "            sys.exit(0)\n"
           "        sys.exit(2)\n"
           "    made += 1\n"
           "sys.exit(1)\n";
    CHECK(f.forfeits("scratch_folders", "--sandbox").empty());
}

// Issue 39: links were judged by their text alone, and "b -> a/.." reads as staying inside. It
// leads out when `a` is "a -> .", and a chain of such links reaches any folder of the host.
TEST_CASE("hostile files e2e: links are resolved through the bot's other links: a chain climbing out is refused") {
    HostileFiles f;
    const fs::path bot = f.manifest_bot("climb");
    const std::vector<std::pair<const char*, const char*>> chain = {
        {"a", "."}, {"b", "a/.."}, {"c", "b/.."}, {"d", "c/.."}, {"x", "d/../etc/shadow"}};
    for (const auto& [name, target] : chain) fs::create_symlink(target, bot / name);
    for (const std::string& sandbox : sandbox_modes()) {
        CAPTURE(sandbox);
        const std::string err = f.refused(bot.string(), sandbox);
        // The first link of the chain that leads out, and the link it leads out through.
        CHECK(contains(err, "b: the link leads out of the bot's folder (to a/.., through a -> .)"));
    }
}

TEST_CASE("hostile files e2e: a build that leaves a chain of links climbing out is refused and nothing is cached") {
    HostileFiles f;
    const fs::path bot = f.manifest_bot("build_climb", "ln -s . a; ln -s a/.. b; ln -s b/../etc/shadow x");
    for (const std::string& sandbox : sandbox_modes()) {
        CAPTURE(sandbox);
        const std::string err = f.refused(bot.string(), sandbox);
        CHECK(contains(err, "left more than the build cache keeps: b: a link that leads out of the folder (to a/.., "
                            "through a -> .): links must point within it; nothing was cached"));
        CHECK(fs::is_empty(f.cache / "builds"));
    }
}
