#include "runner/sys/process.hpp"

#include "runner/sys/temp_dir.hpp"
#include "runner/testing/runner_fixture.hpp"

#include <doctest/doctest.h>
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <string>

using namespace gol::runner;
using namespace std::chrono_literals;

namespace {

SpawnSpec sh(const std::string& script, std::chrono::milliseconds timeout = 2000ms) {
    SpawnSpec spec;
    spec.argv = {"/bin/sh", "-c", script};
    spec.timeout = timeout;
    return spec;
}

bool group_gone(pid_t pgid) { return ::kill(-pgid, 0) != 0 && errno == ESRCH; }

}  // namespace

TEST_CASE("process: captures stdout and exit status") {
    RunOutcome r = run_process(sh("printf '[[1,2]]'; echo oops >&2; exit 3"));
    CHECK(r.kind == RunOutcome::Kind::exited);
    CHECK(r.exit_status == 3);
    CHECK(r.out == "[[1,2]]");
    CHECK(r.err == "oops\n");
    CHECK(describe(r) == "exit status 3");
}

TEST_CASE("process: argv is passed without a shell") {
    SpawnSpec spec;
    spec.argv = {"printf", "%s", "{\"a\": $HOME; `x`}"};
    RunOutcome r = run_process(spec);
    CHECK(r.out == "{\"a\": $HOME; `x`}");
}

TEST_CASE("process: runs in the requested directory") {
    SpawnSpec spec = sh("pwd");
    spec.cwd = "/tmp";
    CHECK(run_process(spec).out == "/tmp\n");
}

TEST_CASE("process: stdin is /dev/null unless data is given") {
    CHECK(run_process(sh("cat; echo end")).out == "end\n");
    SpawnSpec spec = sh("cat");
    spec.stdin_data = std::string(300000, 'x');  // larger than a pipe buffer
    RunOutcome r = run_process(spec);
    CHECK(r.kind == RunOutcome::Kind::exited);
    CHECK(r.out.size() == 300000);
}

TEST_CASE("process: timeout kills the whole group") {
    // The child writes its pid and its background grandchild's pid, then hangs.
    RunOutcome r = run_process(sh("sleep 30 & echo $$ $!; sleep 30", 200ms));
    CHECK(r.kind == RunOutcome::Kind::timed_out);
    CHECK(describe(r) == "timeout");
    pid_t leader = std::stoi(r.out);
    CHECK(group_gone(leader));
}

TEST_CASE("process: a leftover holding stdout is killed when the bot exits") {
    // Waiting for the leftover's stdout to close would end in the timeout, long before its 30 s.
    RunOutcome r = run_process(sh("(sleep 30; echo late) & echo $$; exit 0", 20000ms));
    CHECK(r.kind == RunOutcome::Kind::exited);
    CHECK(r.out.find("late") == std::string::npos);
    CHECK(group_gone(std::stoi(r.out)));
}

TEST_CASE("process: killed by a signal") {
    RunOutcome r = run_process(sh("kill -SEGV $$"));
    CHECK(r.kind == RunOutcome::Kind::signaled);
    CHECK(r.signal == SIGSEGV);
    CHECK(describe(r).rfind("killed by signal 11", 0) == 0);
}

TEST_CASE("process: stdout over the cap is cut off and the bot killed") {
    SpawnSpec spec = sh("yes");
    spec.stdout_cap = 100000;
    RunOutcome r = run_process(spec);
    CHECK(r.kind == RunOutcome::Kind::stdout_overflow);
    CHECK(r.out.size() == 100000);
}

TEST_CASE("process: a stderr flood does not block the reply") {
    SpawnSpec spec = sh("head -c 5000000 /dev/zero >&2; echo '[]'");
    spec.stderr_cap = 1000;
    RunOutcome r = run_process(spec);
    CHECK(r.kind == RunOutcome::Kind::exited);
    CHECK(r.out == "[]\n");
    CHECK(r.err.size() == 1000);
    CHECK(r.err_truncated);
}

TEST_CASE("process: a missing program is reported, not thrown") {
    SpawnSpec spec;
    spec.argv = {"/nonexistent/bot"};
    RunOutcome r = run_process(spec);
    CHECK(r.kind == RunOutcome::Kind::spawn_failed);
    CHECK(describe(r).find("/nonexistent/bot") != std::string::npos);
}

TEST_CASE("process: an argument over Linux's single-argument cap fails to start cleanly") {
    SpawnSpec spec;
    spec.argv = {"/bin/true", std::string(200000, 'a')};
    RunOutcome r = run_process(spec);
    CHECK(r.kind == RunOutcome::Kind::spawn_failed);
    CHECK(r.spawn_error.find("Argument list too long") != std::string::npos);
}

TEST_CASE("process: environment can be replaced") {
    SpawnSpec spec = sh("echo \"[$GOL_X][$HOME]\"");
    spec.env = std::vector<std::string>{"GOL_X=1", "PATH=/usr/bin:/bin"};
    CHECK(run_process(spec).out == "[1][]\n");
}

namespace {

// A uid and gid no account on the host has and no other test process uses, so a limit counting
// the uid's processes counts only this test's.
Identity stranger() {
    const auto id = static_cast<uid_t>(3000000 + ::getpid());
    return {id, static_cast<gid_t>(id)};
}

bool skip_unless_root() {
    if (::geteuid() == 0) return false;
    MESSAGE("not root: a non-root runner cannot switch identity");
    return true;
}

bool skip_unless_containment() {
    if (containment_available()) return false;
    MESSAGE("PID namespaces are not available here: the runner said why on stderr");
    return true;
}

SpawnSpec contained(SpawnSpec spec) {
    spec.contain = true;
    return spec;
}

}  // namespace

TEST_CASE("process: run_as switches user and group and drops supplementary groups") {
    if (skip_unless_root()) return;
    const Identity who = stranger();
    SpawnSpec spec = sh("id -u; id -g; id -G");
    spec.run_as = who;
    RunOutcome r = run_process(spec);
    CHECK(r.kind == RunOutcome::Kind::exited);
    const std::string uid = std::to_string(who.uid), gid = std::to_string(who.gid);
    CHECK(r.out == uid + "\n" + gid + "\n" + gid + "\n");
    CHECK(run_process(sh("id -u")).out == "0\n");  // the runner's own stays root
}

TEST_CASE("process: run_as is applied before exec, so what the identity may not run fails to start") {
    if (skip_unless_root()) return;
    TempDir dir("gol-run-as");  // mode 0700: closed to the stranger
    const std::filesystem::path bot = dir.path() / "bot.sh";
    std::ofstream(bot) << "#!/bin/sh\necho ran\n";
    std::filesystem::permissions(bot, std::filesystem::perms::owner_all);
    SpawnSpec spec;
    spec.argv = {bot.string()};
    CHECK(run_process(spec).out == "ran\n");
    spec.run_as = stranger();
    RunOutcome r = run_process(spec);
    CHECK(r.kind == RunOutcome::Kind::spawn_failed);
    CHECK(r.spawn_error == "could not start " + bot.string() + ": Permission denied");
}

TEST_CASE("process: RLIMIT_NPROC with run_as stops a fork bomb") {
    if (skip_unless_root()) return;
    // 500 children that each sleep: all would be alive at once. The count and the error of the
    // fork that failed are printed.
    SpawnSpec spec;
    spec.argv = {"/usr/bin/python3", "-c",
                 "import os, sys, time\n"
                 "n = 0\n"
                 "try:\n"
                 "    for _ in range(500):\n"
                 "        if os.fork() == 0:\n"
                 "            time.sleep(30)\n"
                 "            os._exit(0)\n"
                 "        n += 1\n"
                 "except OSError as e:\n"
                 "    print(n, e.errno, e.strerror)\n"
                 "    sys.exit(1)\n"
                 "print(n)\n"};
    spec.cwd = "/";
    spec.timeout = 20s;
    spec.limits.processes = 20;
    spec.run_as = stranger();
    RunOutcome r = run_process(spec);
    INFO(describe(r) << ": " << r.err);
    CHECK(r.kind == RunOutcome::Kind::exited);
    CHECK(r.exit_status == 1);
    // python itself is one of the 20.
    CHECK(r.out == "19 11 Resource temporarily unavailable\n");
}

TEST_CASE("process: a contained bot's outcome reads exactly as an uncontained one's") {
    if (skip_unless_containment()) return;
    int passed = ::memfd_create("gol-passed", MFD_CLOEXEC);
    REQUIRE(passed >= 0);
    REQUIRE(::write(passed, "passed\n", 7) == 7);
    struct Case {
        const char* name;
        SpawnSpec spec;
    };
    SpawnSpec with_stdin = sh("cat; echo end >&2; exit 4");
    with_stdin.stdin_data = std::string(300000, 'x');
    SpawnSpec with_fd = sh("cat <&5; pwd");
    with_fd.pass_fd = SpawnSpec::PassedFd{passed, 5};
    with_fd.cwd = "/tmp";
    SpawnSpec missing;
    missing.argv = {"/nonexistent/bot"};
    SpawnSpec too_long;
    too_long.argv = {"/bin/true", std::string(200000, 'a')};
    const std::vector<Case> cases = {
        {"exit status and both streams", sh("printf '[[1,2]]'; echo oops >&2; exit 3")},
        {"signal", sh("kill -SEGV $$")},
        {"CPU limit", [] {
             SpawnSpec s = sh("while :; do :; done", 5000ms);
             s.limits.cpu_seconds = 1;
             return s;
         }()},
        {"stdin to end of file", with_stdin},
        {"passed descriptor and directory", with_fd},
        {"timeout", sh("echo early; sleep 30", 200ms)},
        {"stdout over the cap", [] {
             SpawnSpec s = sh("yes");
             s.stdout_cap = 100000;
             return s;
         }()},
        {"missing program", missing},
        {"argument too long", too_long},
    };
    for (const Case& c : cases) {
        CAPTURE(c.name);
        ::lseek(passed, 0, SEEK_SET);
        RunOutcome plain = run_process(c.spec);
        ::lseek(passed, 0, SEEK_SET);
        RunOutcome boxed = run_process(contained(c.spec));
        CHECK(boxed.kind == plain.kind);
        CHECK(describe(boxed) == describe(plain));
        CHECK(boxed.out == plain.out);
        CHECK(boxed.err == plain.err);
    }
    ::close(passed);
}

TEST_CASE("process: a contained bot gets a passed descriptor on whatever number it asks for") {
    if (skip_unless_containment()) return;
    int passed = ::memfd_create("gol-passed", MFD_CLOEXEC);
    REQUIRE(passed >= 0);
    REQUIRE(::write(passed, "passed", 6) == 6);
    // The runner's own descriptors for the init program and its channel sit on low numbers too.
    for (int as = 3; as <= 16; ++as) {
        CAPTURE(as);
        ::lseek(passed, 0, SEEK_SET);
        SpawnSpec spec = contained(sh("cat /dev/fd/" + std::to_string(as)));
        spec.pass_fd = SpawnSpec::PassedFd{passed, as};
        RunOutcome r = run_process(spec);
        CHECK(describe(r) == "exit status 0");
        CHECK(r.out == "passed");
    }
    ::close(passed);
}

TEST_CASE("process: a contained bot runs as pid 2 of its own namespace and cannot see the runner") {
    if (skip_unless_containment()) return;
    const std::string us = std::to_string(::getpid());
    const std::string script = "echo $$ $PPID; kill -0 " + us + " 2>/dev/null && echo sees the runner; exit 0";
    CHECK(run_process(contained(sh(script))).out == "2 1\n");
    // Without containment the same script does see us: the check above is not vacuous.
    CHECK(run_process(sh(script)).out.find("sees the runner") != std::string::npos);
}

TEST_CASE("process: a contained bot's daemon ends with it, and its peak memory is its own") {
    if (skip_unless_containment()) return;
    const std::string marker = gol::runner::testing::unique_marker(29);
    // setsid leaves the bot's session and process group; the daemon is orphaned at once.
    RunOutcome r = run_process(contained(sh("setsid sh -c 'sleep " + marker + " &'; echo started")));
    CHECK(r.out == "started\n");
    CHECK_FALSE(gol::runner::testing::process_with(marker));

    SpawnSpec big;
    big.argv = {"/usr/bin/python3", "-c", "b = b'x' * (64 << 20); print(len(b))"};
    RunOutcome mem = run_process(contained(big));
    CHECK(mem.out == std::to_string(64 << 20) + "\n");
    CHECK(mem.max_rss_kb >= 64 * 1024);
    CHECK(mem.max_rss_kb < 256 * 1024);
}

TEST_CASE("process: a process's CPU time, with its children's, plain and contained") {
    // A loop of the shell's and a child's: both count, as the bot's whole move.
    const std::string busy = "i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done; sh -c 'j=0; while [ $j -lt 100000 ]; do j=$((j+1)); done'";
    RunOutcome plain = run_process(sh(busy, 20000ms));
    CHECK(plain.kind == RunOutcome::Kind::exited);
    REQUIRE(plain.cpu);
    CHECK(*plain.cpu > 20ms);
    if (skip_unless_containment()) return;
    RunOutcome boxed = run_process(contained(sh(busy, 20000ms)));
    CHECK(boxed.kind == RunOutcome::Kind::exited);
    REQUIRE(boxed.cpu);
    CHECK(*boxed.cpu > 20ms);
}
