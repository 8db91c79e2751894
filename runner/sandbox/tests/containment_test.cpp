// Bots run without the sandbox are contained (their launcher makes them a PID namespace,
// docs/sandbox.md "Without the sandbox"), through the real runner: what a bot starts, daemons included, ends with its move or
// its game and with the runner, even a SIGKILLed one; and a bot cannot reach the runner.
#include "runner/testing/runner_fixture.hpp"

#include <doctest/doctest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <sstream>
#include <thread>

using namespace gol::runner;
using gol::runner::testing::process_with;
using gol::runner::testing::read_text;
using nlohmann::json;
namespace fs = std::filesystem;
using namespace std::chrono_literals;

namespace {

// The contain_ bots of tests/hostile, their sleeps marked uniquely to this fixture: `daemon` for
// the daemons they leave, `hang` for the bot that never replies.
struct Contained : testing::RunnerFixture {
    std::string daemon = testing::unique_marker(37);
    std::string hang = testing::unique_marker(38);

    Contained() {
        // The build snoop writes into its built copy, which the test reads: a cache of its own.
        cache = root.path() / "cache";
        fs::create_directories(bots);
        const fs::path hostile = std::string(TEST_BOTS_DIR) + "/../hostile";
        for (const auto& entry : fs::directory_iterator(hostile))
            if (entry.path().filename().string().rfind("contain_", 0) == 0)
                testing::copy_marked(entry.path(), bots / entry.path().filename(), {{"31.4159", daemon}, {"27.1828", hang}});
        fs::copy(std::string(TEST_BOTS_DIR) + "/block.py", bots / "block.py");
        // A build runs on a copy of its bot's folder: the snoop it runs must be inside.
        fs::copy(bots / "contain_ptrace.py", bots / "contain_build_snoop" / "contain_ptrace.py");
    }

    std::vector<std::string> duel_args(const std::string& bot, std::vector<std::string> extra = {}) {
        std::vector<std::string> args = {"duel",    "block", bot,   "--json",         "--bots",  bots.string(),
                                         "--cache", cache.string(), "--width", "20", "--height", "20",
                                         "--generations", "3", "--no-sandbox"};
        args.insert(args.end(), extra.begin(), extra.end());
        return args;
    }
};

// Polls `done` every 10 ms until it holds or `limit` passes; whether it held.
template <class Done>
bool eventually(Done done, std::chrono::milliseconds limit) {
    const auto give_up = std::chrono::steady_clock::now() + limit;
    while (!done()) {
        if (std::chrono::steady_clock::now() > give_up) return false;
        std::this_thread::sleep_for(10ms);
    }
    return true;
}

// What contain_ptrace.py wrote: the runner's pid it found, and the errno of each attempt (0: it
// worked).
struct Attempts {
    long runner = 0;
    int ptrace = -1, kill = -1, mem = -1;
};

Attempts attempts(const fs::path& result) {
    Attempts a;
    std::istringstream(read_text(result)) >> a.runner >> a.ptrace >> a.kill >> a.mem;
    return a;
}

}  // namespace

TEST_CASE("containment: a setsid daemon a bot leaves ends with its move") {
    Contained f;
    json j = f.duel("block", "contain_daemon", {"--generations", "3", "--no-sandbox"});
    CHECK(j["forfeits"]["contain_daemon"] == 0);
    // The daemon was started: the check below is not vacuous.
    CHECK(fs::exists(f.bots / "contain_daemon.started"));
    CHECK_FALSE(process_with(f.daemon));
}

TEST_CASE("containment: a persistent bot's daemon ends with its game") {
    Contained f;
    json j = f.duel("block", "contain_persistent_daemon", {"--generations", "3", "--no-sandbox"});
    CHECK(j["forfeits"]["contain_persistent_daemon"] == 0);
    CHECK(fs::exists(f.bots / "contain_persistent_daemon" / "started"));
    CHECK_FALSE(process_with(f.daemon));
}

TEST_CASE("containment: SIGKILLing the runner mid-game ends its bots and their daemons") {
    Contained f;
    ProcessRegistry registry;  // holds the runner's process group, for the kill
    RunOutcome run;
    std::thread game([&] { run = f.runner(f.duel_args("contain_hang", {"--time-limit", "60000"}), 120s, &registry); });
    // contain_hang waits for its move once its daemon is started.
    const bool hanging = eventually([&] { return process_with(f.hang); }, 60s);
    const bool daemon_started = process_with(f.daemon);
    registry.kill_all();
    game.join();
    CHECK(hanging);
    CHECK(daemon_started);
    CHECK(run.kind == RunOutcome::Kind::signaled);
    CHECK(run.signal == SIGKILL);
    CHECK(eventually([&] { return !process_with(f.daemon) && !process_with(f.hang); }, 10s));
    // The dead runner's children (the namespaces' inits) were handed to us, the subreaper.
    siginfo_t info{};
    while (::waitid(P_ALL, 0, &info, WEXITED | WNOHANG) == 0 && info.si_pid != 0) info = {};
}

TEST_CASE("containment: a bot can neither ptrace nor signal the runner") {
    Contained f;
    // Cold: the bot looks for the runner in the host's /proc, which a warm python3's namespace
    // hides behind a /proc of its own (docs/sandbox.md).
    json j = f.duel("block", "contain_ptrace", {"--generations", "3", "--cold", "--no-sandbox"});
    CHECK(j["forfeits"]["contain_ptrace"] == 0);
    Attempts a = attempts(f.bots / "ptrace_attempts.txt");
    CHECK(a.runner > 1);  // it found the runner in /proc
    // The runner's pid means nothing in the bot's namespace.
    CHECK(a.ptrace == ESRCH);
    CHECK(a.kill == ESRCH);
}

TEST_CASE("containment: under a runner that is not root, bots and builds cannot reach into its memory") {
    if (::geteuid() != 0) {
        MESSAGE("not root: cannot start the runner as another user");
        return;
    }
    Contained f;
    // A uid no one else has: the runner, its bots and their builds all run as it, as they do
    // when a user runs the runner.
    const auto id = static_cast<uid_t>(3100000 + ::getpid());
    // That user may not reach the build tree (a checkout in a private folder): it runs a copy of
    // the runner with the library and helpers it finds beside it (../lib, ../libexec).
    const fs::path build = fs::path(RUNNER_BIN).parent_path().parent_path();
    const fs::path install = f.root.path() / "runner-copy";
    fs::create_directories(install / "bin");
    fs::copy_file(RUNNER_BIN, install / "bin" / "runner");
    for (const char* folder : {"lib", "libexec"})
        fs::copy(build / folder, install / folder, fs::copy_options::recursive);
    for (const auto& entry : fs::recursive_directory_iterator(f.root.path()))
        REQUIRE(::lchown(entry.path().c_str(), id, id) == 0);
    REQUIRE(::chown(f.root.path().c_str(), id, id) == 0);
    auto duel = [&](const std::string& bot) {
        SpawnSpec spec;
        spec.argv = {(install / "bin" / "runner").string()};
        // Cold: the host's /proc, as in the test above.
        std::vector<std::string> args = f.duel_args(bot, {"--cold"});
        spec.argv.insert(spec.argv.end(), args.begin(), args.end());
        spec.cwd = f.root.path();
        spec.env = std::vector<std::string>{"PATH=/usr/local/bin:/usr/bin:/bin", "TMPDIR=" + f.root.path().string()};
        spec.timeout = 120s;
        spec.run_as = Identity{id, id};
        RunOutcome r = run_process(spec);
        INFO("stderr: " << r.err);
        REQUIRE(r.kind == RunOutcome::Kind::exited);
        REQUIRE(r.exit_status == 0);
        CHECK(json::parse(r.out)["forfeits"][bot] == 0);
    };

    // A contained bot, in a user namespace of its own as well here.
    duel("contain_ptrace");
    Attempts a = attempts(f.bots / "ptrace_attempts.txt");
    CHECK(a.runner > 1);
    CHECK(a.ptrace == ESRCH);
    CHECK(a.kill == ESRCH);
    CHECK(a.mem == EACCES);

    // A build step runs as the runner's own user, through a launcher like a bot.
    duel("contain_build_snoop");
    // Written beside the snoop, in the built copy in the cache.
    fs::path written;
    for (const auto& entry : fs::recursive_directory_iterator(f.cache))
        if (entry.path().filename() == "ptrace_attempts.txt") written = entry.path();
    REQUIRE_FALSE(written.empty());
    Attempts b = attempts(written);
    CHECK(b.runner > 1);
    CHECK(b.ptrace == ESRCH);
    CHECK(b.kill == ESRCH);
    CHECK(b.mem == EACCES);
}
