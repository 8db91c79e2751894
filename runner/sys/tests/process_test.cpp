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

TEST_CASE("process: a process's CPU time, with its children's") {
    // A loop of the shell's and a child's: both count, as the bot's whole move.
    const std::string busy = "i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done; sh -c 'j=0; while [ $j -lt 100000 ]; do j=$((j+1)); done'";
    RunOutcome plain = run_process(sh(busy, 20000ms));
    CHECK(plain.kind == RunOutcome::Kind::exited);
    REQUIRE(plain.cpu);
    CHECK(*plain.cpu > 20ms);
}
