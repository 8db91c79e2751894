// Warm python3 (issue 16): a move forked from an interpreter started once per game must look to
// the bot like `python3 bot.py BOARD`, and nothing a move does may reach the next. Each test runs
// the same bot warm and cold through BotPlayer, contained and, where bubblewrap works, sandboxed.
#include "runner/bots/bot_player.hpp"
#include "runner/testing/runner_fixture.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>

using namespace gol::runner;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

constexpr const char* kBoard = R"J({"y_size":5,"x_size":5,"board":{"(1,1)":1},"bot_id":1,"tick_id":0})J";

// Where a warm python3 can run: contained where PID namespaces can be made, and in the sandbox
// where bubblewrap works.
std::vector<bool> modes() {
    std::vector<bool> m;
    if (containment_available()) m.push_back(false);
    if (Sandbox::find_bubblewrap()) m.push_back(true);
    return m;
}

// Python bots written for one test, run warm or cold, in or out of the sandbox.
struct WarmFixture {
    bool sandboxed;
    WorkArea area{sandboxed && ::geteuid() == 0};
    TempDir dir = testing::searchable(TempDir("gol-warm-test", area.path()));
    std::optional<Sandbox> sandbox;

    explicit WarmFixture(bool in_sandbox) : sandboxed(in_sandbox) {
        if (sandboxed) sandbox.emplace(*Sandbox::find_bubblewrap(), area);
    }

    fs::path write(const std::string& name, const std::string& source) {
        const fs::path file = dir.path() / name;
        std::ofstream(file) << source;
        return file;
    }

    PreparedBot bot(const fs::path& file, Protocol protocol = Protocol::argv) const {
        PreparedBot b;
        b.spec.name = file.stem().string();
        b.spec.path = file;
        b.spec.dir = file.parent_path();
        b.spec.kind = SourceKind::python;
        b.spec.protocol = protocol;
        b.command = {"python3", file.string()};
        b.dir = b.spec.dir;
        b.files = {file};
        return b;
    }

    std::unique_ptr<BotPlayer> player(const PreparedBot& b, bool warm, MoveLimits limits = {}) {
        return std::make_unique<BotPlayer>(b, limits, BotHost{area, sandbox ? &*sandbox : nullptr, nullptr, warm});
    }
};

// What probe.py reports on stderr about itself, its scratch folder's path taken out (each
// player has its own).
json probe(const MoveReport& m) {
    INFO("stderr: " << m.err);
    REQUIRE(m.ok());
    json j = json::parse(m.err);
    REQUIRE(j["env"]["HOME"] == j["env"]["GOL_SCRATCH"]);
    j["env"].erase("HOME");
    j["env"].erase("GOL_SCRATCH");
    return j;
}

constexpr const char* kProbe = R"(import json, os, random, sys
stdin = sys.stdin.read()
sys.stderr.write(json.dumps({
    "argv": sys.argv, "orig_argv": sys.orig_argv, "name": __name__, "file": __file__,
    "path0": sys.path[0], "cwd": os.getcwd(), "env": dict(os.environ), "stdin": stdin,
    "globals": sorted(globals()), "executable": sys.executable, "main": sys.modules["__main__"] is sys.modules[__name__],
    "random": random.random()}))
print("[]")
)";

}  // namespace

TEST_CASE("warm python: to the bot a warm move is python3 bot.py BOARD, but for its random numbers") {
    for (bool sandboxed : modes()) {
        CAPTURE(sandboxed);
        WarmFixture f(sandboxed);
        for (Protocol protocol : {Protocol::argv, Protocol::stdin}) {
            CAPTURE(name(protocol));
            const PreparedBot b = f.bot(f.write("probe.py", kProbe), protocol);
            auto warm = f.player(b, true);
            auto cold = f.player(b, false);
            REQUIRE(warm->warm());
            REQUIRE_FALSE(cold->warm());
            json first = probe(warm->move(kBoard)), second = probe(warm->move(kBoard)), plain = probe(cold->move(kBoard));
            CHECK(first["random"] != second["random"]);
            CHECK(first["random"] != plain["random"]);
            for (json* j : {&first, &second, &plain}) j->erase("random");
            CHECK(first == plain);
            CHECK(second == plain);
            CHECK(plain["argv"].size() == (protocol == Protocol::argv ? 2u : 1u));
            CHECK(plain["name"] == "__main__");
        }
    }
}

TEST_CASE("warm python: sys.exit, an uncaught exception and atexit end a move as they end python3") {
    for (bool sandboxed : modes()) {
        CAPTURE(sandboxed);
        WarmFixture f(sandboxed);
        const std::vector<std::pair<const char*, const char*>> bots = {
            {"exit3.py", "import sys\nprint('[]')\nsys.exit(3)\n"},
            {"exit_text.py", "import sys\nsys.exit('no move today')\n"},
            {"raises.py", "import atexit, sys\natexit.register(lambda: sys.stderr.write('atexit ran\\n'))\n"
                          "def deep():\n    raise ValueError('boom')\ndeep()\n"},
            {"syntax.py", "print('[]'\n"},
            {"keyboard.py", "raise KeyboardInterrupt\n"},
            {"unflushed.py", "import sys\nsys.stdout.write('[[1, 2]]')\n"},
        };
        for (const auto& [file, source] : bots) {
            CAPTURE(file);
            const PreparedBot b = f.bot(f.write(file, source));
            auto warm = f.player(b, true);
            auto cold = f.player(b, false);
            const MoveReport w = warm->move(kBoard), c = cold->move(kBoard);
            CHECK(w.err == c.err);
            CHECK(w.cells == c.cells);
            REQUIRE(w.forfeit.has_value() == c.forfeit.has_value());
            if (c.forfeit) {
                CHECK(w.forfeit->kind == c.forfeit->kind);
                CHECK(w.forfeit->detail == c.forfeit->detail);
            }
            CHECK(warm->warm());
        }
    }
}

TEST_CASE("warm python: nothing a move does to its interpreter or leaves running reaches the next") {
    for (bool sandboxed : modes()) {
        CAPTURE(sandboxed);
        WarmFixture f(sandboxed);
        const std::string marker = testing::unique_marker(61);
        // Move 1 leaves a daemon and a thread, and corrupts json, random and sys.modules; every
        // move reports what it finds first.
        const PreparedBot b = f.bot(f.write("mischief.py", R"(import json, os, random, sys, threading, time
first = not os.path.exists(os.path.join(os.environ["GOL_SCRATCH"], "done"))
sys.stderr.write(json.dumps({"loads": json.loads.__module__, "random": type(sys.modules.get("random")).__name__,
                             "threads": threading.active_count()}))
print("[]")
sys.stdout.flush()
if first:
    open(os.path.join(os.environ["GOL_SCRATCH"], "done"), "w").close()
    if os.fork() == 0:
        os.setsid()
        os.execvp("sleep", ["sleep", ")" + marker + R"("])
    threading.Thread(target=time.sleep, args=(3600,), daemon=True).start()
    json.loads = lambda text: None
    sys.modules["random"] = None
    del sys.modules["os"]
)"));
        auto warm = f.player(b, true);
        for (int move = 0; move < 3; ++move) {
            CAPTURE(move);
            const MoveReport m = warm->move(kBoard);
            INFO("stderr: " << m.err);
            REQUIRE(m.ok());
            const json j = json::parse(m.err);
            CHECK(j["loads"] == "json");
            CHECK(j["random"] == "module");
            CHECK(j["threads"] == 1);
            CHECK_FALSE(testing::process_with(marker));
        }
        CHECK(warm->warm());
    }
}

TEST_CASE("warm python: a move that stops, signals, kills or ptraces its interpreter harms no later move") {
    for (bool sandboxed : modes()) {
        CAPTURE(sandboxed);
        WarmFixture f(sandboxed);
        // Each move does to its parent, the warm interpreter, what the count in its scratch
        // folder says. Killed, the interpreter leaves its move to the launcher, and the next
        // move has a new one.
        const PreparedBot b = f.bot(f.write("attack.py", R"(import ctypes, json, os, signal, sys
step = os.path.join(os.environ["GOL_SCRATCH"], "step")
n = int(open(step).read()) if os.path.exists(step) else 0
open(step, "w").write(str(n + 1))
libc = ctypes.CDLL(None, use_errno=True)
done = None
if n == 0:
    done = libc.ptrace(16, os.getppid(), None, None), ctypes.get_errno()
elif n == 1:
    os.kill(os.getppid(), signal.SIGSTOP)
elif n == 2:
    os.kill(os.getppid(), signal.SIGTERM)
    os.kill(os.getppid(), signal.SIGINT)
elif n == 3:
    os.kill(os.getppid(), signal.SIGKILL)
sys.stderr.write(json.dumps({"n": n, "ptrace": done}))
print("[]")
)"));
        auto warm = f.player(b, true);
        for (int move = 0; move < 6; ++move) {
            CAPTURE(move);
            const MoveReport m = warm->move(kBoard);
            INFO("stderr: " << m.err);
            INFO("forfeit: " << (m.forfeit ? m.forfeit->detail : ""));
            // The move that kills its interpreter ends as it does, or, when the interpreter took
            // its status with it, as killed.
            if (move == 3 && m.forfeit && m.forfeit->kind == ForfeitKind::signal) continue;
            REQUIRE(m.ok());
            const json j = json::parse(m.err);
            CHECK(j["n"] == move);
            // No ptrace of the interpreter: it is not dumpable. (Unsandboxed under root, a bot is
            // root too, and may.)
            if (move == 0 && (sandboxed || ::geteuid() != 0)) CHECK(j["ptrace"] == json::array({-1, EPERM}));
        }
        CHECK(warm->warm());
    }
}

TEST_CASE("warm python: a board over the argument limit is an argument like any, warm") {
    for (bool sandboxed : modes()) {
        CAPTURE(sandboxed);
        WarmFixture f(sandboxed);
        const PreparedBot b =
            f.bot(f.write("length.py", "import sys\nsys.stderr.write(str(len(sys.argv[1])))\nprint('[]')\n"));
        auto warm = f.player(b, true);
        const std::string board = std::string(R"({"y_size":5,"x_size":5,"board":{)") + std::string(300000, ' ') +
                                  R"(},"bot_id":1,"tick_id":0})";
        const MoveReport m = warm->move(board);
        INFO("stderr: " << m.err);
        REQUIRE(m.ok());
        CHECK(m.err == std::to_string(board.size()));
        CHECK(warm->warm());
    }
}

TEST_CASE("warm python: which bots run warm") {
    const WorkArea area;
    TempDir dir("gol-warm-which", area.path());
    const fs::path file = dir.path() / "bot.py";
    std::ofstream(file) << "print('[]')\n";
    PreparedBot b;
    b.spec.name = "bot";
    b.spec.dir = dir.path();
    b.dir = b.spec.dir;
    b.files = {file};
    auto warm = [&](std::vector<std::string> command, bool host_warm = true) {
        b.command = std::move(command);
        return BotPlayer(b, {}, BotHost{area, nullptr, nullptr, host_warm}).warm();
    };
    if (!containment_available()) return;
    CHECK(warm({"python3", file.string()}));
    CHECK(warm({"/usr/bin/python3.11", file.string()}));
    CHECK_FALSE(warm({"python3", file.string()}, false));  // --cold
    CHECK_FALSE(warm({"python3", "-u", file.string()}));    // options: the plain way
    CHECK_FALSE(warm({"python3"}));
    CHECK_FALSE(warm({"python3x", file.string()}));
    CHECK_FALSE(warm({"/bin/sh", file.string()}));
    b.spec.warm = false;  // "warm": false in bot.json
    CHECK_FALSE(warm({"python3", file.string()}));
    b.spec.warm = true;
    b.spec.protocol = Protocol::persistent;
    CHECK_FALSE(warm({"python3", file.string()}));
}
