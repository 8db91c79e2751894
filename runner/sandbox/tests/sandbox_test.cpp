// Attacks on the sandbox itself, through the real runner (issue 14): builds and compilers,
// the host user sandboxed code runs as, its limits, and what a league does when it cannot
// sandbox. Each asserts that the attack's own effect did not happen.
#include "runner/testing/runner_fixture.hpp"

#include "runner/bots/bot_player.hpp"
#include "runner/sandbox/sandbox.hpp"

#include <doctest/doctest.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <future>
#include <thread>

using namespace gol::runner;
using gol::runner::testing::process_with;
using gol::runner::testing::read_text;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

bool sandbox_works() { return Sandbox::find_bubblewrap().has_value(); }

void write(const fs::path& path, const std::string& text, bool executable = false) {
    fs::create_directories(path.parent_path());
    std::ofstream(path) << text;
    if (executable) fs::permissions(path, fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec,
                                    fs::perm_options::add);
}

struct SandboxFixture : testing::RunnerFixture {
    // A mark unique to this fixture for processes a bot or build leaves behind.
    std::string marker = testing::unique_marker(47);
    fs::path results = root.path() / "results";

    SandboxFixture() {
        // These tests are about builds and compilers: they compile into a cache of their own.
        cache = root.path() / "cache";
        fs::create_directories(bots);
        fs::copy(fs::path(TEST_BOTS_DIR) / "block.py", bots / "block.py");
    }

    RunOutcome league(std::vector<std::string> extra = {}) {
        std::vector<std::string> args = {"league", bots.string(), "--results", results.string(), "--cache",
                                         cache.string(), "--width", "20", "--height", "20", "--generations", "3",
                                         "-j", "1", "--format", "json"};
        args.insert(args.end(), extra.begin(), extra.end());
        return runner(args);
    }
};

const json* standing(const json& table, const std::string& bot) {
    for (const json& row : table["standings"])
        if (row["bot"] == bot) return &row;
    return nullptr;
}

}  // namespace

TEST_CASE("sandbox: a hostile build reads no secret, touches no other bot or result, and leaves nothing running") {
    if (!sandbox_works()) return;
    SandboxFixture f;
    f.extra_env = {"GOL_TEST_SECRET=swordfish-" + f.marker};
    write(f.bots / "victim" / "bot.json", R"({"run": ["sh", "run.sh"]})");
    write(f.bots / "victim" / "run.sh", "echo '[[0,0],[0,1],[1,0],[1,1]]'\n");
    const fs::path planted = f.results / "games" / "planted.json";
    // Every attack of issue 14's item 1, then a failure, so that the build's output is published.
    write(f.bots / "evil" / "bot.json",
          json({{"run", {"sh", "run.sh"}},
                {"build", "echo \"secret: $GOL_TEST_SECRET\"; echo 'exit 1' > " + (f.bots / "victim" / "run.sh").string() +
                              "; mkdir -p " + planted.parent_path().string() + "; echo '{}' > " + planted.string() +
                              "; setsid sh -c 'sleep " + f.marker + "' & setsid sh -c 'exec sleep 600' & exit 1"}})
              .dump());
    write(f.bots / "evil" / "run.sh", "echo '[]'\n");

    RunOutcome r = f.league();
    INFO("stderr: " << r.err);
    REQUIRE(r.exit_status == 0);
    CHECK(r.out.find("swordfish") == std::string::npos);
    CHECK(r.err.find("swordfish") == std::string::npos);
    CHECK(r.err.find("secret: \n") != std::string::npos);  // the build ran, and saw nothing
    CHECK(read_text(f.bots / "victim" / "run.sh") == "echo '[[0,0],[0,1],[1,0],[1,1]]'\n");
    CHECK_FALSE(fs::exists(planted));
    CHECK_FALSE(process_with(f.marker));
    json table = json::parse(r.out);
    REQUIRE(standing(table, "victim") != nullptr);
    CHECK((*standing(table, "victim"))["forfeits"] == 0);
    CHECK(standing(table, "evil") == nullptr);
}

TEST_CASE("sandbox: compilers see only their own source, so no host file or other bot reaches a published error") {
    if (!sandbox_works()) return;
    SandboxFixture f;
    write(f.root.path() / "host-secret.txt", "host-" + f.marker + "\n");
    write(f.bots / "victim" / "bot.json", R"({"run": ["sh", "run.sh"]})");
    write(f.bots / "victim" / "run.sh", "echo '[]'\n");
    write(f.bots / "victim" / "secret.txt", "victim-" + f.marker + "\n");
    write(f.bots / "shadow.c", "#include \"/etc/shadow\"\nint main(void) { return 0; }\n");
    write(f.bots / "host.c", "#include \"" + (f.root.path() / "host-secret.txt").string() + "\"\nint main(void){}\n");
    write(f.bots / "neighbour.cpp", "#include \"victim/secret.txt\"\nint main() {}\n");

    RunOutcome r = f.league({"--format", "csv"});
    INFO("stderr: " << r.err);
    REQUIRE(r.exit_status == 0);
    for (const std::string& out : {r.out, r.err}) {
        CHECK(out.find(f.marker) == std::string::npos);
        CHECK(out.find("root:") == std::string::npos);
    }
    CHECK(r.err.find("No such file or directory") != std::string::npos);
    CHECK(read_text(f.results / "leaderboard.html").find(f.marker) == std::string::npos);
}

TEST_CASE("sandbox: a build that touches its sources does not hide later edits") {
    if (!sandbox_works()) return;
    SandboxFixture f;
    write(f.bots / "toucher" / "bot.json", R"({"run": ["sh", "main.sh"], "build": "touch main.sh; echo x > made"})");
    write(f.bots / "toucher" / "main.sh", "echo '[]'\n");
    RunOutcome first = f.league();
    REQUIRE(first.exit_status == 0);
    CHECK(json::parse(first.out)["games"]["played"] == 2);
    CHECK_FALSE(fs::exists(f.bots / "toucher" / "made"));

    write(f.bots / "toucher" / "main.sh", "echo '[[5,5],[5,6],[6,5],[6,6]]'\n");
    RunOutcome second = f.league();
    INFO("stderr: " << second.err);
    REQUIRE(second.exit_status == 0);
    json table = json::parse(second.out);
    CHECK(table["games"]["played"] == 2);  // both of the edited bot's games, again
    CHECK((*standing(table, "toucher"))["wins"].get<int>() + (*standing(table, "toucher"))["draws"].get<int>() == 2);
}

TEST_CASE("sandbox: a build that leaves more than a bot may hold is refused naming the cap, and nothing is cached") {
    if (!sandbox_works()) return;
    SandboxFixture f;
    write(f.bots / "huge" / "bot.json", R"({"run": ["sh", "run.sh"], "build": "truncate -s 1G a; truncate -s 1G b"})");
    write(f.bots / "huge" / "run.sh", "echo '[]'\n");
    write(f.bots / "idle.sh", "echo '[]'\n");
    RunOutcome r = f.league();
    INFO("stderr: " << r.err);
    REQUIRE(r.exit_status == 0);
    const json table = json::parse(r.out);
    REQUIRE(table["excluded"].size() == 1);
    CHECK(table["excluded"][0]["reason"] ==
          "build \"truncate -s 1G a; truncate -s 1G b\" left more than the build cache keeps: 1024 MiB of files or "
          "more, over the 256 MiB a copy may hold (a sparse file counts at its full size); nothing was cached");
    CHECK(fs::is_empty(f.cache / "builds"));
}

TEST_CASE("sandbox: /tmp, /dev/shm and GOL_SCRATCH are capped, and a bot's processes are limited") {
    if (!sandbox_works()) return;
    SandboxFixture f;
    // Each says on stderr how many MiB (or processes) it managed; the game's log keeps it.
    write(f.bots / "tmpfill.sh",
          "n=0; while [ $n -lt 100 ] && dd if=/dev/zero of=/tmp/f$n bs=1M count=1 2>/dev/null; do n=$((n+1)); done\n"
          "m=0; while [ $m -lt 100 ] && dd if=/dev/zero of=/dev/shm/f$m bs=1M count=1 2>/dev/null; do m=$((m+1)); done\n"
          "echo \"filled $n $m\" >&2; echo '[]'\n");
    write(f.bots / "forks.py",
          "import os, sys, time\nn = 0\nfor i in range(400):\n    try:\n        if os.fork() == 0:\n"
          "            time.sleep(5)\n            os._exit(0)\n        n += 1\n    except OSError:\n        break\n"
          "print('forked %d' % n, file=sys.stderr)\nprint('[]')\n");
    auto number_after = [](const std::string& text, const std::string& word) {
        const std::size_t at = text.find(word);
        return at == std::string::npos ? -1 : std::stoi(text.substr(at + word.size()));
    };
    // 100 MiB in files under the file size limit: the scratch filesystem is full at 64 MiB.
    write(f.bots / "scratchfill.sh",
          "set -e; for f in a b; do dd if=/dev/zero of=\"$GOL_SCRATCH/$f\" bs=1M count=50; done; echo '[]'\n");
    // Empty files cost no bytes, but kernel memory: the filesystems count them too.
    write(f.bots / "emptyfiles.sh",
          "for d in /tmp /dev/shm \"$GOL_SCRATCH\"; do n=0; while [ $n -lt 12000 ] && true 2>/dev/null >\"$d/e$n\"; do "
          "n=$((n+1)); done; echo \"files $n\" >&2; done; echo '[]'\n");
    const fs::path log = f.root.path() / "game.log";
    json j = f.duel("tmpfill", "block", {"--sandbox", "--log", log.string(), "--generations", "1"});
    CHECK(j["sandboxed"] == true);
    const std::string filled = read_text(log);
    const int tmp = number_after(filled, "filled "), shm = number_after(filled, "filled " + std::to_string(tmp) + " ");
    CHECK(tmp >= 60);  // a cap, not a missing /tmp
    CHECK(tmp <= 64);
    CHECK(shm >= 60);
    CHECK(shm <= 64);
    // One that dies of it forfeits naming the limit.
    write(f.bots / "tmpdie.sh", "set -e; for i in $(seq 100); do dd if=/dev/zero of=/tmp/f$i bs=1M count=1; done; echo '[]'\n");
    json t = f.duel("tmpdie", "block", {"--sandbox", "--log", log.string(), "--generations", "1"});
    CHECK(t["forfeit_reasons"]["tmpdie"]["resource_limit"] == 1);
    // In words, with what the bot can do about it.
    CHECK(read_text(log).find("the bot went over its size limit of 64 MiB on /tmp, /dev/shm and $GOL_SCRATCH each") !=
          std::string::npos);
    CHECK(read_text(log).find("write less, and fewer files, there") != std::string::npos);

    if (::geteuid() == 0) {  // the runner mounts them itself, with an inode limit
        f.duel("emptyfiles", "block", {"--sandbox", "--log", log.string(), "--generations", "1", "--time-limit", "20000"});
        const std::string text = read_text(log);
        int counted = 0;
        for (std::size_t at = 0; (at = text.find("files ", at)) != std::string::npos; at += 6, ++counted) {
            const int files = std::stoi(text.substr(at + 6));
            CHECK(files > 9000);  // the limit less the folders and files already there
            CHECK(files < 10000);
        }
        CHECK(counted == 3);
    }

    if (::geteuid() == 0) {  // a process limit needs a user of its own, which only root can give
        f.duel("forks", "block", {"--sandbox", "--log", log.string(), "--generations", "1"});
        const int forked = number_after(read_text(log), "forked ");
        CHECK(forked > 0);
        CHECK(forked < 128);
        // One that dies of it forfeits naming the limit.
        write(f.bots / "forkdie.py",
              "import os, time\nfor i in range(400):\n    if os.fork() == 0:\n        time.sleep(5)\n"
              "        os._exit(0)\nprint('[]')\n");
        json d = f.duel("forkdie", "block", {"--sandbox", "--log", log.string(), "--generations", "1"});
        CHECK(d["forfeit_reasons"]["forkdie"]["resource_limit"] == 1);
        CHECK(read_text(log).find("process limit of 128 processes and threads") != std::string::npos);
    }

    json s = f.duel("scratchfill", "block", {"--sandbox", "--generations", "1", "--time-limit", "5000"});
    CHECK(s["forfeit_reasons"]["scratchfill"]["resource_limit"] == 1);
}

TEST_CASE("sandbox: what runs inside is not root on the host") {
    if (!sandbox_works() || ::geteuid() != 0) return;
    const WorkArea area(true);
    Sandbox sandbox(*Sandbox::find_bubblewrap(), area);
    const std::string marker = testing::unique_marker(53);
    PreparedBot bot;
    bot.spec.name = "sleepy";
    bot.spec.dir = bot.dir = "/usr";
    bot.command = {"/bin/sh", "-c", "sleep " + marker + " & wait; echo '[]'"};
    MoveLimits limits = move_limits(20000, 1024);
    BotPlayer player(bot, limits, BotHost{area, &sandbox, nullptr});
    auto move = std::async(std::launch::async, [&] { return player.move("{}"); });
    std::optional<long> uid;
    for (int tries = 0; tries < 2000 && !uid; ++tries) {
        for (const auto& entry : fs::directory_iterator("/proc")) {
            std::string cmd = read_text(entry.path() / "cmdline");
            if (cmd.find("sleep") == std::string::npos || cmd.find(marker) == std::string::npos) continue;
            std::istringstream status(read_text(entry.path() / "status"));
            for (std::string line; std::getline(status, line);)
                if (line.starts_with("Uid:")) uid = std::stol(line.substr(4));
            ::kill(std::stoi(entry.path().filename().string()), SIGKILL);
        }
        if (!uid) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    move.get();
    REQUIRE(uid.has_value());
    CHECK(*uid != 0);
}

TEST_CASE("sandbox: a single-file bot directly in the temporary folder plays") {
    if (!sandbox_works()) return;
    SandboxFixture f;
    // The fixture's folder is the runner's TMPDIR, where its work area goes too.
    fs::copy(fs::path(TEST_BOTS_DIR) / "block.py", f.root.path() / "lonely.py");
    json j = f.duel((f.root.path() / "lonely.py").string(), "block");  // sandboxed by default
    CHECK(j["forfeits"]["lonely"] == 0);
    CHECK(j["sandboxed"] == true);
    CHECK(f.duel("block", "block", {"--no-sandbox"})["sandboxed"] == false);
}

TEST_CASE("work area: a killed runner's folder is removed by the next run") {
    SandboxFixture f;
    write(f.bots / "slow.sh", "sleep 0.2; echo '[]'\n");
    SpawnSpec spec;
    spec.argv = {RUNNER_BIN, "duel", "slow", "block", "--bots", f.bots.string(), "--cache", f.cache.string(),
                 "--quiet", "--width", "10", "--height", "10", "--generations", "1000"};
    spec.env = {"PATH=/usr/local/bin:/usr/bin:/bin", "TMPDIR=" + f.root.path().string()};
    spec.timeout = std::chrono::seconds(60);
    auto areas = [&] {
        int n = 0;
        for (const auto& entry : fs::directory_iterator(f.root.path()))
            n += entry.path().filename().string().starts_with("gol-run-");
        return n;
    };
    // Killed once its area is locked: an area still without its lock is one being made, which
    // the next run rightly leaves alone.
    auto locked = [&] {
        for (const auto& entry : fs::directory_iterator(f.root.path()))
            if (entry.path().filename().string().starts_with("gol-run-") && fs::exists(entry.path() / ".lock")) return true;
        return false;
    };
    std::promise<void> seen;
    std::thread killer([&] {
        for (int tries = 0; tries < 6000 && !locked(); ++tries) std::this_thread::sleep_for(std::chrono::milliseconds(10));
        for (const auto& entry : fs::directory_iterator("/proc")) {
            std::string cmd = read_text(entry.path() / "cmdline");
            if (cmd.starts_with(RUNNER_BIN) && cmd.find(f.bots.string()) != std::string::npos)
                ::kill(std::stoi(entry.path().filename().string()), SIGKILL);
        }
    });
    RunOutcome killed = run_process(spec);
    killer.join();
    CHECK(killed.kind == RunOutcome::Kind::signaled);
    CHECK(areas() == 1);  // left behind
    f.duel("block", "block");
    CHECK(areas() == 0);
}

TEST_CASE("league: asked to sandbox where the sandbox cannot work, it stops with an error") {
    if (::geteuid() != 0) return;
    SandboxFixture f;
    // A root runner's sandboxed bots cannot reach a private TMPDIR.
    const fs::path closed = f.root.path() / "closed";
    fs::create_directories(closed);
    fs::permissions(closed, fs::perms::owner_all);
    SpawnSpec spec;
    spec.argv = {RUNNER_BIN, "league", f.bots.string(), "--results", f.results.string(), "--cache", f.cache.string()};
    spec.env = {"PATH=/usr/local/bin:/usr/bin:/bin", "TMPDIR=" + closed.string()};
    spec.timeout = std::chrono::seconds(60);
    RunOutcome r = run_process(spec);
    CHECK(r.exit_status == 2);
    CHECK(r.err.find("is not searchable by others") != std::string::npos);
    CHECK_FALSE(fs::exists(f.results / "games"));
}

TEST_CASE("builds: runners sharing a cache compile the same bot at once, and all of them use it") {
    SandboxFixture f;
    fs::copy(fs::path(TEST_BOTS_DIR) / "block.cpp", f.bots / "cblock.cpp");
    std::vector<std::future<RunOutcome>> runs;
    for (int i = 0; i < 3; ++i)
        runs.push_back(std::async(std::launch::async, [&] {
            return f.runner({"duel", "cblock", "block", "--json", "--bots", f.bots.string(), "--cache",
                             f.cache.string(), "--width", "10", "--height", "10", "--generations", "1"});
        }));
    for (auto& run : runs) {
        RunOutcome r = run.get();
        INFO("stderr: " << r.err);
        CHECK(r.exit_status == 0);
    }
}

TEST_CASE("java: a single-file Java bot's JVM is sized from the memory limit, and starts under each") {
    SandboxFixture f;
    write(f.bots / "Blocky.java",
          "public class Blocky { public static void main(String[] a) { System.out.println(\"[[1,1],[1,2],[2,1],[2,2]]\"); } }\n");
    for (const char* limit : {"512", "1024", "4096"}) {
        CAPTURE(limit);
        json j = f.duel("Blocky", "block", {"--memory-limit", limit, "--generations", "2", "--time-limit", "5000"});
        CHECK(j["forfeits"]["Blocky"] == 0);
    }
}

TEST_CASE("builds without the sandbox: what a build starts ends with it, so a daemon cannot stall a league") {
    SandboxFixture f;
    write(f.bots / "daemonic" / "bot.json",
          json({{"run", {"sh", "run.sh"}},
                {"build", "setsid sh -c 'sleep " + f.marker + "' & setsid sh -c 'exec sleep 600' & echo built"}})
              .dump());
    write(f.bots / "daemonic" / "run.sh", "echo '[]'\n");
    RunOutcome r = f.league({"--no-sandbox"});
    INFO("stderr: " << r.err);
    REQUIRE(r.kind == RunOutcome::Kind::exited);  // not stalled until the fixture's timeout
    CHECK(r.exit_status == 0);
    CHECK(json::parse(r.out)["sandboxed"] == false);
    CHECK(standing(json::parse(r.out), "daemonic") != nullptr);
    CHECK_FALSE(process_with(f.marker));
}

namespace {

mode_t mode_of(const fs::path& p, struct stat* out = nullptr) {
    struct stat st {};
    REQUIRE(::lstat(p.c_str(), &st) == 0);
    if (out) *out = st;
    return st.st_mode & 07777;
}

// `command` run by sh as `who`, with nothing of ours but its output.
RunOutcome run_as(const Identity& who, const std::string& command) {
    SpawnSpec spec;
    spec.argv = {"/bin/sh", "-c", command};
    spec.env = std::vector<std::string>{"PATH=/usr/bin:/bin"};
    spec.run_as = who;
    spec.timeout = std::chrono::seconds(20);
    return run_process(spec);
}

bool refused(const RunOutcome& r) { return r.kind == RunOutcome::Kind::exited && r.exit_status != 0; }

}  // namespace

TEST_CASE("work area: a bot's staged copy is its group's alone, under a random name; no other user lists or reads it") {
    if (!sandbox_works() || ::geteuid() != 0) return;
    const WorkArea area(true);
    Sandbox sandbox(*Sandbox::find_bubblewrap(), area);
    const TempDir src("staged-src");
    const std::string secret = "secret-" + testing::unique_marker(71);
    write(src.path() / "bot" / "secret.txt", secret);
    write(src.path() / "bot" / "run.sh", "cat secret.txt\n", true);
    write(src.path() / "one.py", secret);
    const std::vector<SandboxView::Mount> mounts =
        sandbox.stage("bot key", {src.path() / "bot", src.path() / "one.py"});
    const std::vector<SandboxView::Mount> programs =
        sandbox.stage("programs", {src.path() / "one.py"}, Sandbox::Files::host);
    const std::optional<Identity> bot = sandbox.new_identity("bot key");
    REQUIRE(bot);
    REQUIRE(mounts.size() == 2);

    CHECK(mode_of(area.path()) == 0711);  // others pass through, and list nothing
    for (const SandboxView::Mount& m : mounts) {
        CHECK(m.source.parent_path() == area.path());
        CHECK(m.source.filename().string().size() == std::string("staged-").size() + 32);
        // Root's and the bot's group's, and nothing for anyone else, all the way down.
        struct stat st {};
        CHECK(mode_of(m.source, &st) == 0750);
        CHECK(st.st_uid == 0);
        CHECK(st.st_gid == bot->gid);
        for (const auto& entry : fs::recursive_directory_iterator(m.source)) {
            CHECK((mode_of(entry.path(), &st) & 07) == 0);
            CHECK(st.st_gid == bot->gid);
        }
    }
    CHECK(mode_of(mounts[0].source / "run.sh") == 0750);
    CHECK(mode_of(mounts[0].source / "secret.txt") == 0640);
    CHECK(mode_of(programs[0].source) == 0755);
    CHECK(mode_of(programs[0].source / "one.py") == 0644);

    // The bot's own processes read it; another bot's, and any other user, neither read nor list.
    const fs::path file = mounts[0].source / "secret.txt";
    CHECK(run_as(*bot, "cat " + file.string()).out == secret);
    const std::optional<Identity> other = sandbox.new_identity("another bot");
    for (const Identity& stranger : {*other, *sandbox.new_identity(), Identity{65534, 65534}}) {
        const RunOutcome read = run_as(stranger, "cat " + file.string());
        CHECK(refused(read));
        CHECK(read.out.find(secret) == std::string::npos);
        CHECK(refused(run_as(stranger, "ls " + area.path().string())));
        CHECK(refused(run_as(stranger, "ls " + mounts[0].source.string())));
        CHECK(refused(run_as(stranger, "cat " + (mounts[1].source / "one.py").string())));
    }
}

TEST_CASE("work area: while a sandboxed bot runs, another local user cannot list or read its staged copy") {
    if (!sandbox_works() || ::geteuid() != 0) return;
    SandboxFixture f;
    const std::string secret = "secret-" + f.marker;
    write(f.bots / "secretive" / "bot.json", R"({"run": ["sh", "run.sh"]})");
    write(f.bots / "secretive" / "secret.txt", secret);
    // It reads its own copy, then waits until the test has looked.
    write(f.bots / "secretive" / "run.sh",
          "echo \"read:$(wc -c < secret.txt)\" >&2; sleep " + f.marker + "; echo '[]'\n");
    const fs::path log = f.root.path() / "game.log";
    auto duel = std::async(std::launch::async, [&] {
        return f.duel("secretive", "block",
                      {"--sandbox", "--generations", "1", "--time-limit", "60000", "--log", log.string()});
    });
    bool seen = false;
    for (int tries = 0; tries < 6000 && !seen; ++tries) {
        seen = process_with(f.marker);
        if (!seen) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    REQUIRE(seen);
    // The test looks as root; a local user (nobody here) tries what it finds.
    std::vector<fs::path> areas, copies;
    for (const auto& entry : fs::directory_iterator(f.root.path()))
        if (entry.path().filename().string().starts_with("gol-run-")) areas.push_back(entry.path());
    REQUIRE(areas.size() == 1);
    for (const auto& entry : fs::directory_iterator(areas[0]))
        if (fs::exists(entry.path() / "secret.txt")) copies.push_back(entry.path());
    REQUIRE(copies.size() == 1);
    const Identity local{65534, 65534};
    const RunOutcome list = run_as(local, "ls " + areas[0].string());
    const RunOutcome read = run_as(local, "cat " + (copies[0] / "secret.txt").string());
    for (const auto& entry : fs::directory_iterator("/proc"))
        if (const std::string cmd = read_text(entry.path() / "cmdline");
            cmd.starts_with("sleep") && cmd.find(f.marker) != std::string::npos)
            ::kill(std::stoi(entry.path().filename().string()), SIGKILL);
    duel.get();
    CHECK(refused(list));
    CHECK(refused(read));
    CHECK(read.out.find(secret) == std::string::npos);
    CHECK(read.err.find("Permission denied") != std::string::npos);
    // The bot itself read it.
    CHECK(read_text(log).find("read:" + std::to_string(secret.size())) != std::string::npos);
}

// Issue 28, point 10: with the bots folder under /tmp, the folders bubblewrap makes for a bot's
// mount are in the sandbox's own /tmp, which the bot may write. A bot renamed them away, put a
// FIFO at its file's path, and the warm interpreter, reading the file again between moves,
// blocked: the runner waited 10 s a move, outside any time limit.
TEST_CASE("sandbox: a bot under /tmp cannot move its mount away and leave a FIFO in its place") {
    if (!sandbox_works()) return;
    SandboxFixture f;
    const TempDir tmp = testing::searchable(TempDir("gol-fifo-attack", "/tmp"));
    const fs::path bots = tmp.path() / "bots";
    write(bots / "swap.py",
          "import os, sys\n"
          "me = os.path.abspath(__file__)\n"
          "top = os.path.dirname(os.path.dirname(me))\n"
          "try:\n"
          "    os.rename(top, top + '-away')\n"
          "    os.makedirs(os.path.dirname(me))\n"
          "    os.mkfifo(me)\n"
          "    print('swapped', file=sys.stderr)\n"
          "except OSError as e:\n"
          "    print('refused: %s' % e.strerror, file=sys.stderr)\n"
          "print('[[18,18],[18,19],[19,18],[19,19]]')\n");
    fs::copy(fs::path(TEST_BOTS_DIR) / "block.py", bots / "block.py");
    const fs::path log = f.root.path() / "game.log";
    RunOutcome r = f.runner({"duel", "swap", "block", "--json", "--bots", bots.string(), "--cache", f.cache.string(),
                             "--sandbox", "--width", "20", "--height", "20", "--generations", "3", "--log",
                             log.string()});
    INFO("stderr: " << r.err << "\nlog: " << read_text(log));
    REQUIRE(r.exit_status == 0);
    const json j = json::parse(r.out);
    CHECK(j["forfeits"]["swap"] == 0);
    CHECK(read_text(log).find("swapped") == std::string::npos);
    CHECK(read_text(log).find("refused: ") != std::string::npos);
}

// Without the sandbox a bot's folder is its own to change: the warm interpreter opens the bot's
// file without waiting and refuses one that is not a regular file, as a forfeit saying so.
TEST_CASE("warm interpreters: a bot file that is no longer a regular file is a forfeit, not a wait") {
    SandboxFixture f;
    write(f.bots / "fifo.py",
          "import os\nme = os.path.abspath(__file__)\nos.unlink(me)\nos.mkfifo(me)\n"
          "print('[[18,18],[18,19],[19,18],[19,19]]')\n");
    write(f.bots / "fifo.rb",
          "me = File.expand_path(__FILE__)\nFile.unlink(me)\nFile.mkfifo(me)\n"
          "puts '[[18,18],[18,19],[19,18],[19,19]]'\n");
    for (const char* bot : {"fifo.py", "fifo.rb"}) {
        const fs::path log = f.root.path() / (std::string(bot) + ".log");
        const json j = f.duel(bot, "block", {"--no-sandbox", "--generations", "3", "--log", log.string()});
        INFO(bot << " log: " << read_text(log));
        CHECK(j["forfeits"]["fifo"] == 2);
        CHECK(j["forfeit_reasons"]["fifo"]["exit_status"] == 2);
        CHECK(read_text(log).find("is a FIFO, not a regular file") != std::string::npos);
    }
}

TEST_CASE("sandbox: memory that is no process's own counts against the bot's memory limit") {
    if (!sandbox_works() || !ControlGroups().available()) {
        MESSAGE("no sandbox or no control groups here: the memory limit is per process only (docs/sandbox.md)");
        return;
    }
    SandboxFixture f;
    // 32 memfds of 60 MiB, never mapped (each under the file size limit): 1.9 GiB no address
    // space counts; then SysV shared memory, which outlives every process of a plain bot.
    write(f.bots / "memfd.py",
          "import os\nfds = []\nfor i in range(32):\n    fd = os.memfd_create('x')\n"
          "    os.posix_fallocate(fd, 0, 60 << 20)\n    fds.append(fd)\nprint('[[1,1]]')\n");
    write(f.bots / "shm.py",
          "import ctypes\nlibc = ctypes.CDLL(None)\nlibc.shmat.restype = ctypes.c_void_p\nfor i in range(32):\n"
          "    sid = libc.shmget(0, 60 << 20, 0o1600)\n    if sid < 0: break\n"
          "    addr = libc.shmat(sid, None, 0)\n    ctypes.memset(addr, 1, 60 << 20)\n"
          "    libc.shmdt(ctypes.c_void_p(addr))\nprint('[[1,1]]')\n");
    const fs::path log = f.root.path() / "memory.log";
    for (const std::string bot : {"memfd", "shm"}) {
        json j = f.duel(bot, "block", {"--sandbox", "--memory-limit", "128", "--generations", "1", "--time-limit", "20000",
                                      "--log", log.string()});
        CAPTURE(j.dump());
        CHECK(j["forfeit_reasons"][bot]["resource_limit"] == 1);
        CHECK(read_text(log).find("memory limit of 128 MiB (its processes, shared memory and files in memory, together)") !=
              std::string::npos);
    }
}

TEST_CASE("sandbox: a bot cannot pin itself onto CPUs its game was not given") {
    if (!sandbox_works() || !ControlGroups().holds("cpuset") || std::thread::hardware_concurrency() < 2) {
        MESSAGE("no cpuset controller or a single CPU here: nothing to escape to");
        return;
    }
    SandboxFixture f;
    write(f.bots / "repin.py",
          "import os, sys\ntry:\n    os.sched_setaffinity(0, range(os.cpu_count()))\nexcept OSError:\n    pass\n"
          "print('cpus %d' % len(os.sched_getaffinity(0)), file=sys.stderr)\nprint('[]')\n");
    const fs::path log = f.root.path() / "repin.log";
    // A game runs on the CPUs of its thread: one CPU in a league of -j 1 (and in this duel).
    f.runner({"duel", (f.bots / "repin.py").string(), (f.bots / "block.py").string(), "--sandbox", "--generations", "1",
              "--log", log.string()});
    CHECK(read_text(log).find("cpus 1\n") != std::string::npos);
}

TEST_CASE("sandbox: an interpreter outside /usr is found and shown read-only with --interpreter") {
    if (!sandbox_works()) return;
    SandboxFixture f;
    const fs::path interpreter = f.root.path() / "interp";
    fs::create_directories(interpreter / "bin");
    write(interpreter / "bin" / "myinterp", "#!/bin/sh\nexec /bin/sh \"$@\"\n");
    fs::permissions(interpreter / "bin" / "myinterp", fs::perms::owner_all | fs::perms::group_exec | fs::perms::others_exec,
                    fs::perm_options::add);
    const fs::path bot = f.bots / "interpreted";
    fs::create_directories(bot);
    write(bot / "bot.json", R"({"run": ["myinterp", "bot.sh"]})");
    write(bot / "bot.sh", "echo '[[1,1]]'\n");
    const std::vector<std::string> check = {"check", bot.string(), "--runs", "1", "--width", "20", "--height", "20"};

    RunOutcome missing = f.runner(check);
    CHECK(missing.exit_status != 0);
    CHECK(missing.err.find("myinterp is not installed") != std::string::npos);
    CHECK(missing.err.find("--interpreter DIR") != std::string::npos);

    std::vector<std::string> with = check;
    with.insert(with.end(), {"--interpreter", interpreter.string()});
    RunOutcome found = f.runner(with);
    CAPTURE(found.out);
    CHECK(found.exit_status == 0);
    CHECK(found.out.find("sandbox:  yes") != std::string::npos);
    CHECK(found.out.find("OK: every reply was valid") != std::string::npos);
}
