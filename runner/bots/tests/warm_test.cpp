// Warm interpreters (issue 16): a move forked from a python3 or ruby started once per game must
// look to the bot like `python3 bot.py BOARD` or `ruby bot.rb BOARD`, and nothing a move does may
// reach the next. Each test runs the same bot warm and cold through BotPlayer, contained and,
// where bubblewrap works, sandboxed.
#include "runner/bots/bot_player.hpp"
#include "runner/testing/runner_fixture.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <functional>
#include <fstream>

using namespace gol::runner;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

constexpr const char* kBoard = R"J({"y_size":5,"x_size":5,"board":{"(1,1)":1},"bot_id":1,"tick_id":0})J";

// Where a warm interpreter runs: in its launcher's PID namespace always, and in the sandbox where
// bubblewrap works.
std::vector<bool> modes() {
    std::vector<bool> m = {false};
    if (Sandbox::find_bubblewrap()) m.push_back(true);
    return m;
}

// Python and Ruby bots written for one test, run warm or cold, in or out of the sandbox.
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

    // A .py file runs with python3, a .rb file with ruby.
    PreparedBot bot(const fs::path& file, Protocol protocol = Protocol::argv) const {
        const bool ruby = file.extension() == ".rb";
        PreparedBot b;
        b.spec.name = file.stem().string();
        b.spec.path = file;
        b.spec.dir = file.parent_path();
        b.spec.kind = ruby ? SourceKind::ruby : SourceKind::python;
        b.spec.protocol = protocol;
        b.command = {*find_in_path(ruby ? "ruby" : "python3", bot_path), file.string()};
        b.dir = b.spec.dir;
        b.files = {file};
        return b;
    }

    std::unique_ptr<BotPlayer> player(const PreparedBot& b, bool warm, MoveLimits limits = {}) {
        return std::make_unique<BotPlayer>(b, limits, BotHost{area, sandbox ? &*sandbox : nullptr, nullptr, warm});
    }
};

// `test` with a fixture of each mode.
void in_each_mode(const std::function<void(WarmFixture&)>& test) {
    for (bool sandboxed : modes()) {
        CAPTURE(sandboxed);
        WarmFixture f(sandboxed);
        test(f);
    }
}

// What a probe reports on stderr about itself, its scratch folder's path taken out (each
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

// Also what the move's set-up made of the process (warm: warm_move.c in the interpreter's fork;
// cold: the launcher before the exec): its open descriptors, limits (not CPU's: a first move has
// more), signals and dumpability.
constexpr const char* kProbe = R"(import ctypes, json, os, random, resource, signal, sys
stdin = sys.stdin.read()
limits = [resource.getrlimit(getattr(resource, "RLIMIT_" + name)) for name in ("AS", "FSIZE", "NOFILE", "CORE")]
sys.stderr.write(json.dumps({
    "argv": sys.argv, "orig_argv": sys.orig_argv, "name": __name__, "file": __file__,
    "path0": sys.path[0], "cwd": os.getcwd(), "env": dict(os.environ), "stdin": stdin,
    "globals": sorted(globals()), "executable": sys.executable, "main": sys.modules["__main__"] is sys.modules[__name__],
    "fds": sorted(os.listdir("/proc/self/fd")), "limits": limits, "dumpable": ctypes.CDLL(None).prctl(3, 0, 0, 0, 0),
    "blocked": sorted(signal.pthread_sigmask(signal.SIG_BLOCK, [])), "sigint": str(signal.getsignal(signal.SIGINT)),
    "sigpipe": str(signal.getsignal(signal.SIGPIPE)), "session": os.getsid(0) == os.getpid(),
    "random": random.random()}))
print("[]")
)";

// Each bot played once warm and once cold: the same stderr, cells and forfeit.
void ends_alike(WarmFixture& f, const std::vector<std::pair<const char*, const char*>>& bots) {
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

// Six moves of a bot that does to its parent, the warm interpreter, what the count in its scratch
// folder says: move 0 ptraces it, 1 stops it, 2 signals it to end, 3 kills it; each reports
// {"n": its count, "ptrace": [result, errno] at move 0}. Killed, the interpreter leaves its move
// to the launcher, and the next move has a new one.
void attacks_harm_no_later_move(WarmFixture& f, const PreparedBot& b) {
    auto warm = f.player(b, true);
    for (int move = 0; move < 6; ++move) {
        CAPTURE(move);
        const MoveReport m = warm->move(kBoard);
        INFO("stderr: " << m.err);
        INFO("forfeit: " << (m.forfeit ? m.forfeit->detail : ""));
        // The move that kills its interpreter ends as it does, or, when the interpreter took its
        // status with it, as killed.
        if (move == 3 && m.forfeit && m.forfeit->kind == ForfeitKind::signal) continue;
        REQUIRE(m.ok());
        const json j = json::parse(m.err);
        CHECK(j["n"] == move);
        // No ptrace of the interpreter: it is not dumpable. (Unsandboxed under root, a bot is root
        // too, and may.)
        if (move == 0 && (f.sandboxed || ::geteuid() != 0)) CHECK(j["ptrace"] == json::array({-1, EPERM}));
    }
    CHECK(warm->warm());
}

// The probe in `file`, run twice warm and once cold with each protocol: equal but for its random
// number, which differs from move to move. `args`: how many arguments it reports given a board.
void probes_alike(WarmFixture& f, const std::string& file, const char* source, std::size_t args) {
    for (Protocol protocol : {Protocol::argv, Protocol::stdin}) {
        CAPTURE(name(protocol));
        const PreparedBot b = f.bot(f.write(file, source), protocol);
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
        CHECK(plain["argv"].size() == (protocol == Protocol::argv ? args : args - 1));
        // Python's probe says more of its set-up: the standard three descriptors and the one
        // listing them, no signal blocked, dumpable, a session of its own.
        if (plain.contains("fds")) {
            CHECK(plain["fds"] == json::array({"0", "1", "2", "3"}));
            CHECK(plain["blocked"].empty());
            CHECK(plain["dumpable"] == 1);
            CHECK(plain["session"] == true);
        }
    }
}

}  // namespace

TEST_CASE("warm python: to the bot a warm move is python3 bot.py BOARD, but for its random numbers") {
    in_each_mode([](WarmFixture& f) {
        probes_alike(f, "probe.py", kProbe, 2);
    });
}

TEST_CASE("warm python: sys.exit, an uncaught exception and atexit end a move as they end python3") {
    in_each_mode([](WarmFixture& f) {
        const std::vector<std::pair<const char*, const char*>> bots = {
            {"exit3.py", "import sys\nprint('[]')\nsys.exit(3)\n"},
            {"exit_text.py", "import sys\nsys.exit('no move today')\n"},
            {"raises.py", "import atexit, sys\natexit.register(lambda: sys.stderr.write('atexit ran\\n'))\n"
                          "def deep():\n    raise ValueError('boom')\ndeep()\n"},
            {"syntax.py", "print('[]'\n"},
            {"keyboard.py", "raise KeyboardInterrupt\n"},
            {"unflushed.py", "import sys\nsys.stdout.write('[[1, 2]]')\n"},
        };
        ends_alike(f, bots);
    });
}

TEST_CASE("warm python: nothing a move does to its interpreter or leaves running reaches the next") {
    in_each_mode([](WarmFixture& f) {
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
    });
}

TEST_CASE("warm python: a move that stops, signals, kills or ptraces its interpreter harms no later move") {
    in_each_mode([](WarmFixture& f) {
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
        attacks_harm_no_later_move(f, b);
    });
}

TEST_CASE("warm python: a bot's file that can change is read again each move, as python3 would") {
    // Unsandboxed, a bot's folder is writable; the interpreter reads the file again after each move
    // (in the sandbox it is read-only, and read once per game).
    WarmFixture f(false);
    const fs::path file = f.write("rewrites.py", R"(import sys
sys.stderr.write('first')
open(__file__, 'w').write("import sys\nsys.stderr.write('second')\nprint('[]')\n")
print('[]')
)");
    auto warm = f.player(f.bot(file), true);
    CHECK(warm->move(kBoard).err == "first");
    CHECK(warm->move(kBoard).err == "second");
    CHECK(warm->warm());
}

TEST_CASE("warm python: a board over the argument limit is an argument like any, warm") {
    in_each_mode([](WarmFixture& f) {
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
    });
}

constexpr const char* kRubyProbe = R"(require "json"
stdin = $stdin.read
$stderr.write(JSON.dump({
  "argv" => ARGV, "program" => $0, "file" => __FILE__, "dir" => __dir__, "cwd" => Dir.pwd, "env" => ENV.to_h,
  "stdin" => stdin, "locals" => local_variables, "self" => self.to_s, "loaded" => $LOADED_FEATURES.grep(/json/).size > 0,
  "random" => rand}))
puts "[]"
)";

TEST_CASE("warm ruby: to the bot a warm move is ruby bot.rb BOARD, but for its random numbers") {
    in_each_mode([](WarmFixture& f) {
        probes_alike(f, "probe.rb", kRubyProbe, 1);
    });
}

TEST_CASE("warm ruby: exit, an uncaught exception, a syntax error and at_exit end a move as they end ruby") {
    in_each_mode([](WarmFixture& f) {
        const std::vector<std::pair<const char*, const char*>> bots = {
            {"exit3.rb", "puts '[]'\nexit 3\n"},
            {"abort.rb", "abort 'no move today'\n"},
            {"raises.rb", "at_exit { $stderr.puts 'at_exit ran' }\ndef deep\n  raise ArgumentError, 'boom'\nend\ndeep\n"},
            {"syntax.rb", "puts '[]'\nputs(\n"},
            {"unflushed.rb", "$stdout.write '[[1, 2]]'\n"},
        };
        ends_alike(f, bots);
    });
}

TEST_CASE("warm ruby: nothing a move does to its interpreter or leaves running reaches the next") {
    in_each_mode([](WarmFixture& f) {
        const std::string marker = testing::unique_marker(62);
        const PreparedBot b = f.bot(f.write("mischief.rb", R"(require "json"
done = File.join(ENV["GOL_SCRATCH"], "done")
first = !File.exist?(done)
$stderr.write(JSON.dump({"parse" => JSON.parse("[1]"), "threads" => Thread.list.size, "range" => (1..2).respond_to?(:product)}))
puts "[]"
$stdout.flush
if first
  File.write(done, "")
  Process.detach(spawn("sleep", ")" + marker + R"(", pgroup: true))
  Thread.new { sleep }
  module JSON
def self.parse(*) = nil
  end
  class Range
def product(other) = to_a.product(other.to_a)
  end
end
)"));
        auto warm = f.player(b, true);
        for (int move = 0; move < 3; ++move) {
            CAPTURE(move);
            const MoveReport m = warm->move(kBoard);
            INFO("stderr: " << m.err);
            REQUIRE(m.ok());
            const json j = json::parse(m.err);
            CHECK(j["parse"] == json::array({1}));
            CHECK(j["threads"] == 1);
            CHECK(j["range"] == false);
            CHECK_FALSE(testing::process_with(marker));
        }
        CHECK(warm->warm());
    });
}

TEST_CASE("warm ruby: a move that stops, signals, kills or ptraces its interpreter harms no later move") {
    in_each_mode([](WarmFixture& f) {
        const PreparedBot b = f.bot(f.write("attack.rb", R"(require "fiddle"
require "json"
step = File.join(ENV["GOL_SCRATCH"], "step")
n = File.exist?(step) ? File.read(step).to_i : 0
File.write(step, (n + 1).to_s)
ptrace = nil
case n
when 0
  f = Fiddle::Function.new(Fiddle::Handle::DEFAULT["ptrace"], [Fiddle::TYPE_LONG, Fiddle::TYPE_INT, Fiddle::TYPE_VOIDP,
                                                        Fiddle::TYPE_VOIDP], Fiddle::TYPE_LONG)
  ptrace = [f.call(16, Process.ppid, nil, nil), Fiddle.last_error]
when 1 then Process.kill("STOP", Process.ppid)
when 2 then Process.kill("TERM", Process.ppid); Process.kill("INT", Process.ppid); Process.kill("USR1", Process.ppid)
when 3 then Process.kill("KILL", Process.ppid)
end
$stderr.write(JSON.dump({"n" => n, "ptrace" => ptrace}))
puts "[]"
)"));
        attacks_harm_no_later_move(f, b);
    });
}

TEST_CASE("warm interpreters: which bots run warm") {
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
    CHECK(warm({"python3", file.string()}));
    CHECK(warm({"/usr/bin/python3.11", file.string()}));
    CHECK_FALSE(warm({"python3", file.string()}, false));  // --cold
    CHECK_FALSE(warm({"python3", "-u", file.string()}));    // options: the plain way
    CHECK_FALSE(warm({"python3"}));
    CHECK_FALSE(warm({"python3x", file.string()}));
    CHECK_FALSE(warm({"/bin/sh", file.string()}));
    CHECK(warm({"ruby", file.string()}));
    CHECK(warm({"/usr/bin/ruby3.1", file.string()}));
    CHECK_FALSE(warm({"ruby", "-w", file.string()}));
    b.spec.warm = false;  // "warm": false in bot.json
    CHECK_FALSE(warm({"python3", file.string()}));
    b.spec.warm = true;
    b.spec.protocol = Protocol::persistent;
    CHECK_FALSE(warm({"python3", file.string()}));
}

TEST_CASE("warm interpreters: a move's CPU time is measured warm as cold") {
    // Busy for well over 20 ms of CPU on any machine, then a pass.
    const std::vector<std::pair<const char*, const char*>> bots = {
        {"busy.py", "sum(range(10_000_000))\nprint('[]')\n"},
        {"busy.rb", "10_000_000.times.sum\nputs '[]'\n"},
    };
    for (const auto& [file, source] : bots) {
        CAPTURE(file);
        in_each_mode([&](WarmFixture& f) {
            const PreparedBot b = f.bot(f.write(file, source));
            auto warm = f.player(b, true);
            auto cold = f.player(b, false);
            for (const MoveReport& m : {warm->move(kBoard), cold->move(kBoard)}) {
                INFO((m.ok() ? "" : m.forfeit->detail));
                CHECK(m.ok());
                REQUIRE(m.cpu);
                CHECK(*m.cpu > std::chrono::milliseconds(20));
            }
            CHECK(warm->warm());
        });
    }
}
