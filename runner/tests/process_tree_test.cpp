#include "runner/process_tree.hpp"

#include "runner/process.hpp"

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

// SIGCONT takes effect when its process next runs: wait for that, boundedly.
char state_once_continued(int pid) {
    char state = 'T';
    for (int i = 0; i < 2000 && state == 'T'; ++i) {
        auto stat = read_stat(pid);
        state = stat ? stat->state : '?';
        if (state == 'T') std::this_thread::sleep_for(1ms);
    }
    return state;
}

}  // namespace

TEST_CASE("process tree: /proc/PID/stat is parsed past a command name holding spaces and parentheses") {
    const std::string text =
        "4242 (a) (b c) S 1 4242 4200 0 -1 4194560 100 0 0 0 7 5 30 11 20 0 1 0 12345 1000 100 18446744073709551615";
    auto stat = parse_stat(text);
    REQUIRE(stat);
    CHECK(stat->state == 'S');
    CHECK(stat->session == 4200);
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

    // Stopped, not only stopping, when stop_tree returns.
    const std::vector<int> stopped = stop_tree(p.pid(), ::getpid());
    CHECK(stopped.size() == 3);
    for (int pid : {p.pid(), child, orphan}) CHECK(read_stat(pid)->state == 'T');
    signal_each(stopped, SIGCONT);
    for (int pid : {p.pid(), child, orphan}) CHECK(state_once_continued(pid) != 'T');
}

TEST_CASE("process tree: CPU time counts what a process reaped from its children, and stops with it") {
    // The child spins in the shell, then is reaped by it before the reply.
    LineProcess p = shell("sh -c 'i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done'; echo reaped; "
                          "while :; do :; done");
    REQUIRE(p.started());
    REQUIRE(p.exchange("go", 30s).kind == LineProcess::Reply::Kind::line);
    auto stat = read_stat(p.pid());
    REQUIRE(stat);
    CHECK(stat->cpu_ticks > 0);

    // The shell spins now: its time grows until it is stopped, then stays.
    const std::vector<int> tree = {p.pid()};
    const auto before = cpu_time(tree);
    for (int i = 0; i < 5000 && cpu_time(tree) <= before; ++i) std::this_thread::sleep_for(1ms);
    CHECK(cpu_time(tree) > before);
    stop_tree(p.pid(), 0);
    REQUIRE(read_stat(p.pid())->state == 'T');
    const auto stopped = cpu_time(tree);
    std::this_thread::sleep_for(100ms);
    CHECK(cpu_time(tree) == stopped);
    signal_each(tree, SIGCONT);
}

TEST_CASE("process tree: a process that is gone has no stat and costs nothing") {
    LineProcess p = shell("echo $$; read y");
    REQUIRE(p.started());
    REQUIRE(p.exchange("go", 5s).kind == LineProcess::Reply::Kind::line);
    const int pid = p.pid();
    LineProcess::Reply r = p.exchange("again", 5s);  // the shell has exited: it is reaped
    REQUIRE(r.kind == LineProcess::Reply::Kind::exited);
    CHECK_FALSE(read_stat(pid));
    CHECK(cpu_time({pid}) == 0ms);
}
