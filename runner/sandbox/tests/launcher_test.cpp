// The per-game launcher (launcher.hpp) on its own, in the sandbox and contained: what a move gets
// and returns, that each move's processes all end with it, limits, and attacks on the launcher
// from the bot's side of the namespace.
#include "runner/sandbox/launcher.hpp"

#include "runner/sandbox/long_argument.hpp"
#include "runner/sandbox/sandbox.hpp"
#include "runner/sys/temp_dir.hpp"
#include "runner/sys/unique_fd.hpp"
#include "runner/sandbox/work_area.hpp"

#include <doctest/doctest.h>
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/mman.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <fstream>
#include <optional>
#include <string>
#include <thread>

using namespace gol::runner;
using namespace std::chrono_literals;
namespace fs = std::filesystem;

namespace {

// A launcher in the sandbox or contained, as BotPlayer makes one, with nothing of a bot mounted.
struct Box {
    WorkArea area{::geteuid() == 0};
    std::optional<Sandbox> sandbox;
    std::unique_ptr<Launcher> launcher;

    explicit Box(bool sandboxed) {
        REQUIRE(launcher_program());
        std::optional<Identity> identity;
        if (sandboxed) {
            sandbox.emplace(*Sandbox::find_bubblewrap(), area);
            identity = sandbox->new_identity();
        }
        launcher = Launcher::make(sandboxed ? &*sandbox : nullptr, SandboxView{{}, "/", {}, {}}, identity, nullptr);
    }

    RunOutcome run(const std::string& script, std::chrono::milliseconds timeout = 5000ms) {
        return *launcher->run(move(script, timeout));
    }

    static SpawnSpec move(const std::string& script, std::chrono::milliseconds timeout = 5000ms) {
        SpawnSpec spec;
        spec.argv = {"/bin/sh", "-c", script};
        spec.env = std::vector<std::string>{"PATH=/usr/bin:/bin"};
        spec.cwd = "/";
        spec.timeout = timeout;
        return spec;
    }
};

// The ways a launcher runs: in a PID namespace of its own always, and in the sandbox where
// bubblewrap works.
std::vector<bool> modes() {
    std::vector<bool> m = {false};
    if (Sandbox::find_bubblewrap()) m.push_back(true);
    return m;
}

// A mark unique to this test process for the sleeps a move leaves behind.
std::string marker() { return "1000." + std::to_string(::getpid()); }

// How many processes on the host have `mark` in their command line.
int processes_with(const std::string& mark) {
    int n = 0;
    for (const auto& entry : fs::directory_iterator("/proc")) {
        const std::string name = entry.path().filename().string();
        if (name.find_first_not_of("0123456789") != std::string::npos) continue;
        // read(2), not a stream: a process that ends while it is read fails the read (ESRCH),
        // which libstdc++'s stream buffer turns into an exception.
        UniqueFd fd(::open((entry.path() / "cmdline").c_str(), O_RDONLY | O_CLOEXEC));
        std::string cmdline;
        char buf[4096];
        for (ssize_t got; fd && (got = ::read(fd.get(), buf, sizeof buf)) > 0;) cmdline.append(buf, static_cast<std::size_t>(got));
        if (cmdline.find(mark) != std::string::npos) ++n;
    }
    return n;
}

}  // namespace

TEST_CASE("launcher: a move's output, status, stdin, environment and folder; moves share the launcher") {
    for (bool sandboxed : modes()) {
        CAPTURE(sandboxed);
        Box box(sandboxed);
        SpawnSpec spec = Box::move("read line; echo \"$line $FOO $(pwd)\"; echo oops >&2; exit 3");
        spec.stdin_data = "hello\n";
        spec.env->push_back("FOO=bar");
        spec.cwd = "/tmp";
        RunOutcome r = *box.launcher->run(spec);
        CHECK(r.kind == RunOutcome::Kind::exited);
        CHECK(r.exit_status == 3);
        CHECK(r.out == "hello bar /tmp\n");
        CHECK(r.err == "oops\n");
        const int pid = box.launcher->pid();
        CHECK(pid > 0);
        // The move runs in a PID namespace of its own (in the sandbox, where /proc is the
        // namespace's, process 1 is seen to be the launcher), and the same launcher serves the next.
        r = box.run("echo $$");
        CHECK(std::stoi(r.out) > 1);
        CHECK(std::stoi(r.out) < 100);
        if (sandboxed) {
            r = box.run("tr '\\0' ' ' < /proc/1/cmdline");
            CHECK(r.out.find("gol-launcher 3") != std::string::npos);
        }
        CHECK(box.launcher->pid() == pid);
        r = box.run("kill -SEGV $$");
        CHECK(r.kind == RunOutcome::Kind::signaled);
        CHECK(r.signal == SIGSEGV);
    }
}

TEST_CASE("launcher: nothing a move starts outlives it, daemons and timeouts included") {
    const std::string mark = marker();
    for (bool sandboxed : modes()) {
        CAPTURE(sandboxed);
        Box box(sandboxed);
        RunOutcome r = box.run("setsid sleep " + mark + " & sleep " + mark + " & echo left");
        CHECK(r.kind == RunOutcome::Kind::exited);
        CHECK(r.out == "left\n");
        CHECK(processes_with(mark) == 0);
        const int pid = box.launcher->pid();
        r = box.run("setsid sleep " + mark + " & sleep " + mark, 300ms);
        CHECK(r.kind == RunOutcome::Kind::timed_out);
        CHECK(processes_with(mark) == 0);
        // A loop that keeps forking while the launcher kills: each kill can miss the newest child.
        r = box.run("(while :; do sleep " + mark + " & done) & sleep 0.05; echo forking");
        CHECK(r.out == "forking\n");
        CHECK(processes_with(mark) == 0);
        r = box.run("yes", 5000ms);
        CHECK(r.kind == RunOutcome::Kind::stdout_overflow);
        r = box.run("echo next");
        CHECK(r.out == "next\n");
        CHECK(box.launcher->pid() == pid);
    }
}

TEST_CASE("launcher: a bot's signals do not reach its launcher") {
    for (bool sandboxed : modes()) {
        CAPTURE(sandboxed);
        Box box(sandboxed);
        RunOutcome r = box.run("kill -KILL 1; kill -TERM 1; kill -STOP 1; kill -INT 1; kill -KILL -1; echo alive");
        CHECK(r.kind == RunOutcome::Kind::exited);
        CHECK(r.out == "alive\n");
        const int pid = box.launcher->pid();
        r = box.run("echo next");
        CHECK(r.out == "next\n");
        CHECK(box.launcher->pid() == pid);
    }
}

TEST_CASE("launcher: in the sandbox a bot cannot reach the control socket") {
    if (!Sandbox::find_bubblewrap()) return;
    Box box(true);
    // Only its own three streams (and ls's own look at the folder); the launcher's are closed to it.
    RunOutcome r = box.run("ls /proc/self/fd | tr '\\n' ' '; ls /proc/1/fd >/dev/null 2>&1 && echo open || echo closed;"
                           " cat /proc/1/environ >/dev/null 2>&1 && echo open || echo closed");
    CHECK(r.out == "0 1 2 3 closed\nclosed\n");
}

TEST_CASE("launcher: limits and a passed descriptor are set in the move's process") {
    for (bool sandboxed : modes()) {
        CAPTURE(sandboxed);
        Box box(sandboxed);
        SpawnSpec spec = Box::move("ulimit -n; ulimit -f; ulimit -t; ulimit -v; cat <&3");
        spec.limits = {std::uint64_t{512} << 20, 2, std::uint64_t{1} << 20, 32, 0};
        LongArgument board("the board");
        spec.pass_fd = SpawnSpec::PassedFd{board.fd(), 3};
        RunOutcome r = *box.launcher->run(spec);
        // sh counts the file size limit in blocks of 512 bytes, the address space in KiB.
        CHECK(r.out == "32\n2048\n2\n524288\nthe board");
        CHECK(board.taken());
        r = *box.launcher->run(Box::move("exec /no/such/program"));
        CHECK(r.exit_status == 127);
        SpawnSpec missing = Box::move("");
        missing.argv = {"no-such-program-here"};
        r = *box.launcher->run(missing);
        CHECK(r.kind == RunOutcome::Kind::spawn_failed);
        CHECK(r.spawn_error == "could not start no-such-program-here: No such file or directory");
    }
}

TEST_CASE("launcher: a launcher killed during a move ends it, and the next move gets a new one") {
    const std::string mark = marker();
    for (bool sandboxed : modes()) {
        CAPTURE(sandboxed);
        Box box(sandboxed);
        REQUIRE(box.run("true").kind == RunOutcome::Kind::exited);
        const int pid = box.launcher->pid();
        std::atomic<bool> stop{false}, seen{false};
        std::thread killer([&] {
            while (!stop && !(seen = processes_with(mark) > 0)) std::this_thread::sleep_for(5ms);
            ::kill(pid, SIGKILL);
        });
        RunOutcome r = box.run("sleep " + mark, 10000ms);
        stop = true;
        killer.join();
        CHECK(seen);
        CHECK(r.kind == RunOutcome::Kind::signaled);
        CHECK(r.signal == SIGKILL);
        CHECK(processes_with(mark) == 0);
        r = box.run("echo next");
        CHECK(r.out == "next\n");
        CHECK(box.launcher->pid() != pid);
    }
}

TEST_CASE("launcher: a move's CPU time comes with its end, the children it waited for included") {
    for (bool sandboxed : modes()) {
        CAPTURE(sandboxed);
        Box box(sandboxed);
        const RunOutcome r =
            box.run("i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done; sh -c 'j=0; while [ $j -lt 100000 ]; do j=$((j+1)); done'",
                    20000ms);
        CHECK(r.kind == RunOutcome::Kind::exited);
        REQUIRE(r.cpu);
        CHECK(*r.cpu > 20ms);
    }
}

TEST_CASE("launcher: a warm move's time counts from the launcher's request, whatever its interpreter says") {
    // An interpreter a bot had taken over (issue 39): it works 3 s on the move before it says it
    // started, and stamps STARTED with its own clock then. Its move must time out at 1 s.
    const TempDir dir("gol-launcher-clock");
    const fs::path script = dir.path() / "late_start.py";
    std::ofstream(script) << R"(import os, socket, struct, time
REQUEST, REPLY = struct.Struct("=IIiIIIQQQQQ"), struct.Struct("=iiq")
s = socket.socket(fileno=3)
s.sendall(REPLY.pack(1, os.getpid(), 0))
while True:
    head, ancillary, _, _ = s.recvmsg(REQUEST.size, socket.CMSG_SPACE(16), socket.MSG_WAITALL)
    if len(head) < REQUEST.size:
        os._exit(0)
    fields = REQUEST.unpack(head)
    fds = [fd for _, _, data in ancillary for fd in memoryview(data)[:len(data) & ~3].cast("i")]
    if fields[0] != 1:
        continue
    if fields[5]:
        s.recv(fields[5], socket.MSG_WAITALL)
    time.sleep(3)
    pid = os.fork()
    if pid == 0:
        time.sleep(0.5)
        os.write(fds[0], b"[]\n")
        os._exit(0)
    for fd in fds:
        os.close(fd)
    s.sendall(REPLY.pack(2, pid, time.clock_gettime_ns(time.CLOCK_MONOTONIC)))
    s.sendall(REPLY.pack(4, os.waitpid(pid, 0)[1], 0))
)";
    Box box(false);
    SpawnSpec spec = Box::move("", 1000ms);
    spec.argv = {"/usr/bin/python3", "bot.py"};
    const std::optional<RunOutcome> r = box.launcher->run(spec, script.string());
    REQUIRE(r);
    CHECK(r->kind == RunOutcome::Kind::timed_out);
}

namespace {

// A process for the game spoken to a line at a time, as a persistent bot's conversation does.
struct Lines {
    Launcher& launcher;
    pipes::Streams streams;
    Launcher::Held held;

    Lines(Launcher& l, const SpawnSpec& spec) : launcher(l) {
        Launcher::Started started = launcher.start(spec);
        REQUIRE(started.error == "");
        streams = std::move(started.streams);
    }

    // `line` sent with the tree released, one line back within `timeout`, the tree held again;
    // nullopt when none came (it ended, or the time passed).
    std::optional<std::string> exchange(const std::string& line, std::chrono::milliseconds timeout) {
        REQUIRE(launcher.release());
        const std::string message = line + "\n";
        streams.to_write = message;
        std::size_t newline = std::string::npos;
        const pipes::Pumped r = pipes::pump(streams, launcher.control(), pipes::Clock::now() + timeout, [&] {
            newline = streams.out_buf.find('\n');
            return newline != std::string::npos;
        });
        streams.to_write = {};
        if (r != pipes::Pumped::done) return std::nullopt;
        std::string reply = streams.out_buf.substr(0, newline);
        streams.out_buf.erase(0, newline + 1);
        held = launcher.hold();
        return reply;
    }
};

}  // namespace

TEST_CASE("launcher: a process for the game is spoken to over its pipes, held between turns, and its end is told") {
    for (bool sandboxed : modes()) {
        CAPTURE(sandboxed);
        Box box(sandboxed);
        Lines lines(*box.launcher, Box::move("read l; echo \"[$l]\"; read l; echo \"$$\"; read l; kill -TERM $$"));
        CHECK(lines.exchange("one", 2s) == "[one]");
        CHECK(lines.exchange("two", 2s) == "2");
        CHECK_FALSE(lines.held.ended);
        CHECK_FALSE(lines.exchange("three", 2s));
        const RunOutcome end = box.launcher->kill();
        CHECK(end.kind == RunOutcome::Kind::signaled);
        CHECK(end.signal == SIGTERM);

        // The same launcher starts the next one, whose missing program is named.
        SpawnSpec missing = Box::move("");
        missing.argv = {"/nonexistent/bot"};
        CHECK(box.launcher->start(missing).error == "could not start /nonexistent/bot: No such file or directory");
    }
}

// A child the bot leaves spinning between its moves takes no CPU then: the launcher stops every
// process of the namespace after each reply, and counts their CPU time while they run.
TEST_CASE("launcher: between turns every process of a game's process is held, and its CPU counted") {
    for (bool sandboxed : modes()) {
        CAPTURE(sandboxed);
        Box box(sandboxed);
        const std::string spin = "while :; do :; done";
        // It waits on stdin at the end, so that the kill below ends it rather than its own exit.
        Lines lines(*box.launcher, Box::move("read l; (" + spin + ") & echo ok; read l; echo again; read l"));
        REQUIRE(lines.exchange("go", 2s) == "ok");
        std::this_thread::sleep_for(300ms);
        REQUIRE(lines.exchange("go", 2s) == "again");
        // Held for 300 ms, the spinning child used far less than that during the second turn.
        CHECK(lines.held.cpu < 150ms);
        const RunOutcome killed = box.launcher->kill();
        CHECK(killed.kind == RunOutcome::Kind::signaled);
        CHECK(killed.signal == SIGKILL);
        CHECK(box.run("echo plain").out == "plain\n");
    }
}

// Held while it forks, every turn: a child whose fork spanned the hold was once left stopped
// after the release, and its parent (the bot) waited for it until the turn's time ran out. A
// CI run failed so in the LISTEN test below.
TEST_CASE("launcher: a game's process held in the middle of its forks is wholly released") {
    for (bool sandboxed : modes()) {
        CAPTURE(sandboxed);
        Box box(sandboxed);
        Lines lines(*box.launcher, Box::move("while read l; do echo ok; for i in 1 2 3 4 5 6; do (:); done; done"));
        int answered = 0;
        while (answered < 400 && lines.exchange("go", 20s) == "ok") ++answered;
        CHECK(answered == 400);
    }
}

TEST_CASE("launcher: a game's process that writes two lines for one keeps the second, and one killed in its turn ends") {
    for (bool sandboxed : modes()) {
        CAPTURE(sandboxed);
        Box box(sandboxed);
        // One write, so that both lines are there when the first is taken.
        Lines lines(*box.launcher, Box::move("read l; printf 'a\\nb\\n'; read l; echo c"));
        CHECK(lines.exchange("1", 2s) == "a");
        CHECK(lines.streams.out_buf == "b\n");
        box.launcher->kill();
        Lines slow(*box.launcher, Box::move("read l; sleep 5"));
        CHECK_FALSE(slow.exchange("1", 200ms));
        CHECK(box.launcher->kill().signal == SIGKILL);
        // And a plain move runs on the same launcher afterwards.
        CHECK(box.run("echo plain").out == "plain\n");
    }
}

// The launcher's outcome is the process's own, as a plain spawn reports it: one protocol for
// every bot, whatever the way its move ended.
TEST_CASE("launcher: a move's outcome reads exactly as a plain process's") {
    int passed = ::memfd_create("gol-passed", MFD_CLOEXEC);
    REQUIRE(passed >= 0);
    REQUIRE(::write(passed, "passed\n", 7) == 7);
    struct Case {
        const char* name;
        SpawnSpec spec;
    };
    SpawnSpec with_stdin = Box::move("cat; echo end >&2; exit 4");
    with_stdin.stdin_data = std::string(300000, 'x');
    SpawnSpec with_fd = Box::move("cat <&5; pwd");
    with_fd.pass_fd = SpawnSpec::PassedFd{passed, 5};
    with_fd.cwd = "/tmp";
    SpawnSpec missing;
    missing.argv = {"/nonexistent/bot"};
    SpawnSpec too_long;
    too_long.argv = {"/bin/true", std::string(200000, 'a')};
    const std::vector<Case> cases = {
        {"exit status and both streams", Box::move("printf '[[1,2]]'; echo oops >&2; exit 3")},
        {"signal", Box::move("kill -SEGV $$")},
        {"CPU limit", [] {
             SpawnSpec s = Box::move("while :; do :; done", 5000ms);
             s.limits.cpu_seconds = 1;
             return s;
         }()},
        {"stdin to end of file", with_stdin},
        {"passed descriptor and directory", with_fd},
        {"timeout", Box::move("echo early; sleep 30", 200ms)},
        {"stdout over the cap", [] {
             SpawnSpec s = Box::move("yes");
             s.stdout_cap = 100000;
             return s;
         }()},
        {"missing program", missing},
        {"argument too long", too_long},
    };
    for (bool sandboxed : modes()) {
        Box box(sandboxed);
        for (Case c : cases) {
            CAPTURE(sandboxed);
            CAPTURE(c.name);
            c.spec.env = std::vector<std::string>{"PATH=/usr/bin:/bin"};
            ::lseek(passed, 0, SEEK_SET);
            RunOutcome plain = run_process(c.spec);
            ::lseek(passed, 0, SEEK_SET);
            RunOutcome launched = *box.launcher->run(c.spec);
            CHECK(launched.kind == plain.kind);
            CHECK(describe(launched) == describe(plain));
            CHECK(launched.out == plain.out);
            CHECK(launched.err == plain.err);
        }
    }
    ::close(passed);
}

namespace {

// A TCP socket listening on the host's 127.0.0.1, and its port.
std::pair<UniqueFd, int> host_listener() {
    UniqueFd fd(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    REQUIRE(::bind(fd.get(), reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
    REQUIRE(::listen(fd.get(), 1) == 0);
    REQUIRE(::getsockname(fd.get(), reinterpret_cast<sockaddr*>(&address), &length) == 0);
    return {std::move(fd), ntohs(address.sin_port)};
}

// One connection accepted on `listener` within a few seconds.
UniqueFd accept_one(int listener) {
    pollfd p{listener, POLLIN, 0};
    REQUIRE(::poll(&p, 1, 10000) == 1);
    return UniqueFd(::accept4(listener, nullptr, nullptr, SOCK_CLOEXEC));
}

}  // namespace

TEST_CASE("launcher: LISTEN gives a socket in the bot's namespace, which the bot reaches and nothing else") {
    for (bool sandboxed : modes()) {
        CAPTURE(sandboxed);
        Box box(sandboxed);
        auto [host, host_port] = host_listener();
        Launcher::Listener listener = box.launcher->listen();
        REQUIRE(listener.fd);
        CHECK(listener.port > 0);
        // The bot's process connects to the port it was given, and tries the host's.
        const std::string script = "exec 3<>/dev/tcp/127.0.0.1/" + std::to_string(listener.port) +
                                   "; echo hello >&3; read l <&3; (exec 4<>/dev/tcp/127.0.0.1/" +
                                   std::to_string(host_port) +
                                   ") 2>/dev/null && r=reached || r=unreachable; read x; echo \"got $l\"; read x; echo $r";
        SpawnSpec spec = Box::move(script);
        spec.argv = {"/bin/bash", "-c", script};
        Lines lines(*box.launcher, spec);
        CHECK(box.launcher->release());
        UniqueFd connection = accept_one(listener.fd.get());
        listener.fd.reset();
        REQUIRE(connection);
        char buffer[16] = {};
        std::string said;
        while (said.find('\n') == std::string::npos) {
            const ssize_t got = ::read(connection.get(), buffer, sizeof buffer);
            REQUIRE(got > 0);
            said.append(buffer, static_cast<std::size_t>(got));
        }
        CHECK(said == "hello\n");
        REQUIRE(::write(connection.get(), "there\n", 6) == 6);
        CHECK_FALSE(box.launcher->hold().ended);
        // Its next line shows what it got and whether the host's loopback was in reach: only
        // outside the sandbox, whose network namespace has a loopback of its own.
        // A limit that only a hang reaches, not a loaded machine (a CI run once timed out at 5 s
        // here, not reproduced since); should it end, what it wrote on stderr.
        const std::optional<std::string> reply = lines.exchange("", 30s);
        INFO("stderr: " << lines.streams.err_buf);
        CHECK(reply == "got there");
        CHECK(lines.exchange("", 30s) == (sandboxed ? "unreachable" : "reached"));
        box.launcher->kill();
        // The launcher serves moves after it as before.
        CHECK(box.run("echo after").out == "after\n");
    }
}

TEST_CASE("launcher: a launcher that cannot start is a fault of the runner's, never a move's end") {
    SpawnSpec start;
    start.argv = {"/nonexistent/gol-launcher", std::to_string(launcher_fd)};
    start.env = std::vector<std::string>{};
    Launcher launcher(start, false);
    CHECK_THROWS_AS(launcher.run(Box::move("echo never")), RunnerFault);
    CHECK_THROWS_AS(launcher.start(Box::move("echo never")), RunnerFault);
    CHECK_THROWS_AS(launcher.listen(), RunnerFault);
}
