#include "runner/process.hpp"

#include <doctest/doctest.h>
#include <signal.h>

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
    CHECK(r.elapsed < 2s);
    pid_t leader = std::stoi(r.out);
    CHECK(group_gone(leader));
}

TEST_CASE("process: a leftover holding stdout is killed when the bot exits") {
    RunOutcome r = run_process(sh("(sleep 30; echo late) & echo $$; exit 0", 5000ms));
    CHECK(r.kind == RunOutcome::Kind::exited);
    CHECK(r.elapsed < 2s);
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
