#include "runner/sys/process_tree.hpp"

#include "runner/sys/process.hpp"

#include <doctest/doctest.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <sstream>
#include <thread>

using namespace gol::runner;
using namespace std::chrono_literals;

namespace {

// A shell that waits for one line, then runs `script`, whose first line of output is its reply.
LineProcess shell(const std::string& script) {
    SpawnSpec spec;
    spec.argv = {"/bin/sh", "-c", "read x; " + script};
    return LineProcess(spec);
}

std::vector<int> pids_in(const std::string& line) {
    std::vector<int> pids;
    std::istringstream in(line);
    for (int pid; in >> pid;) pids.push_back(pid);
    return pids;
}

bool contains(const std::vector<int>& pids, int pid) { return std::find(pids.begin(), pids.end(), pid) != pids.end(); }

// A signal takes effect when its process next runs: its state once that happened, boundedly.
char state_after(int pid, bool stop) {
    char state = '?';
    for (int i = 0; i < 2000; ++i) {
        auto stat = read_stat(pid);
        state = stat ? stat->state : '?';
        if ((state == 'T') == stop) break;
        std::this_thread::sleep_for(1ms);
    }
    return state;
}

long long ticks_of(int pid) { return read_stat(pid)->cpu_ticks; }

}  // namespace

TEST_CASE("process tree: /proc/PID/stat is parsed past a command name holding spaces and parentheses") {
    const std::string text =
        "4242 (a) (b c) S 1 4242 4200 0 -1 4194560 100 0 0 0 7 5 30 11 20 0 1 0 12345 1000 100 18446744073709551615";
    auto stat = parse_stat(text);
    REQUIRE(stat);
    CHECK(stat->state == 'S');
    CHECK(stat->cpu_ticks == 7 + 5 + 30 + 11);
    CHECK_FALSE(parse_stat("4242 (cut short) S 1 2"));
    CHECK_FALSE(parse_stat(""));
}

TEST_CASE("process tree: descendants are found, orphans only through the subreaper that adopted them") {
    // A child, and an orphan whose parent exited before the reply: the test runner is a
    // subreaper (tests/main.cpp), so the orphan is ours now.
    LineProcess p = shell("sleep 300 & a=$!; b=$(sh -c 'sleep 300 >/dev/null & echo $!'); echo $a $b; wait");
    REQUIRE(p.started());
    LineProcess::Reply r = p.exchange("go", 5s);
    REQUIRE(r.kind == LineProcess::Reply::Kind::line);
    const std::vector<int> spawned = pids_in(r.line);
    REQUIRE(spawned.size() == 2);
    const int child = spawned[0], orphan = spawned[1];

    const std::vector<int> own = walk_tree(p.pid(), 0, 0);
    CHECK(own.front() == p.pid());
    CHECK(contains(own, child));
    CHECK_FALSE(contains(own, orphan));
    const std::vector<int> all = walk_tree(p.pid(), ::getpid(), 0);
    CHECK(all.size() == 3);
    CHECK(contains(all, child));
    CHECK(contains(all, orphan));

    const std::vector<int> stopped = stop_tree(p.pid(), ::getpid()).pids;
    CHECK(stopped.size() == 3);
    for (int pid : {p.pid(), child, orphan}) CHECK(state_after(pid, true) == 'T');
    signal_each(stopped, SIGCONT);
    for (int pid : {p.pid(), child, orphan}) CHECK(state_after(pid, false) != 'T');
}

TEST_CASE("process tree: a child of a thread other than the main one is found") {
    // The thread starts the child and stays, so the child stays the thread's.
    SpawnSpec spec;
    spec.argv = {"python3", "-c",
                 "import subprocess, sys, threading\n"
                 "def start():\n"
                 "    print(subprocess.Popen(['sleep', '300']).pid, flush=True)\n"
                 "    threading.Event().wait()\n"
                 "sys.stdin.readline()\n"
                 "threading.Thread(target=start, daemon=True).start()\n"
                 "threading.Event().wait()\n"};
    LineProcess p(spec);
    REQUIRE(p.started());
    LineProcess::Reply r = p.exchange("go", 10s);
    REQUIRE(r.kind == LineProcess::Reply::Kind::line);
    const std::vector<int> spawned = pids_in(r.line);
    REQUIRE(spawned.size() == 1);
    CHECK(walk_tree(p.pid(), 0, 0) == std::vector<int>{p.pid(), spawned[0]});
}

TEST_CASE("process tree: CPU time counts what a process reaped from its children, and stops with it") {
    // The child spins in the shell, then is reaped by it before the reply; then the shell spins.
    LineProcess p = shell("sh -c 'i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done'; echo reaped; "
                          "while :; do :; done");
    REQUIRE(p.started());
    REQUIRE(p.exchange("go", 30s).kind == LineProcess::Reply::Kind::line);
    const StoppedTree first = stop_tree(p.pid(), 0);
    CHECK(first.pids == std::vector<int>{p.pid()});
    // The child's loop takes about 0.25 s of CPU; the shell itself spun only until the stop.
    CHECK(first.cpu >= 100ms);

    // Stopped, its time stays; continued, it grows.
    REQUIRE(state_after(p.pid(), true) == 'T');
    const long long stopped = ticks_of(p.pid());
    std::this_thread::sleep_for(100ms);
    CHECK(ticks_of(p.pid()) == stopped);
    signal_each(first.pids, SIGCONT);
    long long later = stopped;
    for (int i = 0; i < 5000 && later == stopped; ++i) {
        std::this_thread::sleep_for(1ms);
        later = ticks_of(p.pid());
    }
    CHECK(later > stopped);
}

TEST_CASE("process tree: a process that is gone has no stat") {
    LineProcess p = shell("echo $$; read y");
    REQUIRE(p.started());
    REQUIRE(p.exchange("go", 5s).kind == LineProcess::Reply::Kind::line);
    const int pid = p.pid();
    REQUIRE(read_stat(pid));
    LineProcess::Reply r = p.exchange("again", 5s);  // the shell exits without a reply: it is reaped
    REQUIRE(r.kind == LineProcess::Reply::Kind::exited);
    CHECK_FALSE(read_stat(pid));
}
