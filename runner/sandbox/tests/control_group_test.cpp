#include "runner/sandbox/control_group.hpp"
#include "runner/sys/process.hpp"

#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <thread>

using namespace gol::runner;
namespace fs = std::filesystem;

namespace {

// A v1 host as these machines are: one hierarchy per controller, the runner in a memory group.
constexpr const char* kV1Mounts =
    "31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n"
    "32 31 0:29 / /sys/fs/cgroup/cpu,cpuacct rw,relatime - cgroup cgroup rw,cpu,cpuacct\n"
    "34 31 0:31 / /sys/fs/cgroup/cpuset rw,relatime - cgroup cgroup rw,cpuset\n"
    "35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory\n"
    "36 31 0:33 / /sys/fs/cgroup/devices rw,relatime - cgroup cgroup rw,devices\n"
    "41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n";
constexpr const char* kV1Self = "9:name=systemd:/\n4:memory:/jobs/7\n3:cpuset:/\n2:cpu,cpuacct:/\n5:devices:/\n0::/\n";

std::string read(const fs::path& path) {
    std::ifstream in(path);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

}  // namespace

TEST_CASE("control group: v1 hierarchies are found with the runner's own group in each") {
    const std::vector<CgroupHierarchy> found = find_hierarchies(kV1Mounts, kV1Self, "");
    REQUIRE(found.size() == 3);
    CHECK(found[0].version == 1);
    CHECK(found[0].dir == "/sys/fs/cgroup/cpu,cpuacct");
    CHECK(found[0].controllers == std::vector<std::string>{"cpu", "cpuacct"});
    CHECK(found[1].dir == "/sys/fs/cgroup/cpuset");
    CHECK(found[2].dir == "/sys/fs/cgroup/memory/jobs/7");
    CHECK(found[2].controllers == std::vector<std::string>{"memory"});
}

TEST_CASE("control group: cgroup v2 is used when its root offers the memory controller") {
    const char* mounts = "29 23 0:26 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw,nsdelegate\n";
    const std::vector<CgroupHierarchy> found =
        find_hierarchies(mounts, "0::/user.slice/session-1.scope\n", "cpuset cpu io memory hugetlb pids rdma misc\n");
    REQUIRE(found.size() == 1);
    CHECK(found[0].version == 2);
    CHECK(found[0].dir == "/sys/fs/cgroup");
    CHECK(found[0].controllers == std::vector<std::string>{"memory", "pids", "cpu", "cpuset", "cpuacct"});
    // A v2 without its controllers (they are bound to v1) is passed over for v1.
    CHECK(find_hierarchies(kV1Mounts, kV1Self, "\n").size() == 3);
    // Nothing mounted: nothing found.
    CHECK(find_hierarchies("22 1 0:5 / /proc rw - proc proc rw\n", "0::/\n", "").empty());
}

TEST_CASE("control group: a mount of a subtree shows the runner's group from there") {
    const char* mounts = "50 40 0:40 /docker/abc /sys/fs/cgroup/memory ro - cgroup cgroup rw,memory\n";
    const std::vector<CgroupHierarchy> found = find_hierarchies(mounts, "4:memory:/docker/abc/runner\n", "");
    REQUIRE(found.size() == 1);
    CHECK(found[0].dir == "/sys/fs/cgroup/memory/runner");
}

TEST_CASE("control group: a process joins at its start and is held, frozen, counted and killed") {
    ControlGroups groups;
    if (!groups.available()) {
        MESSAGE("no control groups here: " << groups.why_not());
        return;
    }
    CHECK(groups.holds("memory"));
    std::unique_ptr<ControlGroup> group = groups.make(GroupLimits{64 << 20, 8, 100, ""});

    // Its processes are counted against pids.max: of 20 children, fewer than 8 start.
    SpawnSpec forks;
    forks.argv = {"python3", "-c",
                  "import os, time\nn = 0\nfor i in range(20):\n    try:\n        if os.fork() == 0:\n"
                  "            time.sleep(5)\n            os._exit(0)\n        n += 1\n    except OSError:\n        break\n"
                  "print('forked', n)\nprint(open('/proc/self/cgroup').read())\n"};
    forks.join_groups = group->join_fds();
    forks.timeout = std::chrono::seconds(10);
    const RunOutcome r = run_process(forks);
    CAPTURE(r.out);
    CHECK(r.kind == RunOutcome::Kind::exited);
    const std::size_t at = r.out.find("forked ");
    REQUIRE(at != std::string::npos);
    CHECK(std::stoi(r.out.substr(at + 7)) < 8);
    CHECK(r.out.find("/bot-") != std::string::npos);  // /proc/self/cgroup names its group

    // A spinning process: the group counts its CPU time.
    SpawnSpec spin;
    spin.argv = {"/bin/sh", "-c", "while :; do :; done"};
    spin.join_groups = group->join_fds();
    BackgroundProcess spinner(spin);
    REQUIRE(spinner.started());
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (group->cpu().value_or(std::chrono::microseconds(0)) < std::chrono::milliseconds(30) &&
           std::chrono::steady_clock::now() < until)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    CHECK(group->cpu().value_or(std::chrono::microseconds(0)) >= std::chrono::milliseconds(30));

    // Held, it takes at most 1 ms in each 100 ms (of 500 ms spinning: about 5); released, it
    // spins again. The group's own count, in microseconds: the ticks of /proc are too coarse.
    REQUIRE(group->can_hold());
    REQUIRE(group->hold());
    const auto held_at = group->cpu().value_or(std::chrono::microseconds(0));
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    CHECK(group->cpu().value_or(std::chrono::microseconds(0)) - held_at < std::chrono::milliseconds(50));
    group->release();
    const auto released_at = group->cpu().value_or(std::chrono::microseconds(0));
    while (group->cpu().value_or(std::chrono::microseconds(0)) - released_at < std::chrono::milliseconds(60) &&
           std::chrono::steady_clock::now() < until)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    CHECK(group->cpu().value_or(std::chrono::microseconds(0)) - released_at >= std::chrono::milliseconds(60));

    // Held again, then killed: the kill releases it first, and the group is removed.
    REQUIRE(group->hold());
    group.reset();
    CHECK(spinner.end().find("signal 9") != std::string::npos);
}

TEST_CASE("control group: memory that is no process's own (memfd pages) is held to the limit") {
    ControlGroups groups;
    if (!groups.available()) {
        MESSAGE("no control groups here: " << groups.why_not());
        return;
    }
    std::unique_ptr<ControlGroup> group = groups.make(GroupLimits{64 << 20, 0, 0, ""});
    SpawnSpec fill;
    fill.argv = {"python3", "-c",
                 "import os\nfds = []\nfor i in range(8):\n    fd = os.memfd_create('x')\n"
                 "    os.posix_fallocate(fd, 0, 32 << 20)\n    fds.append(fd)\nprint('held', len(fds))\n"};
    fill.join_groups = group->join_fds();
    fill.timeout = std::chrono::seconds(20);
    const std::uint64_t before = group->oom_kills();
    const RunOutcome r = run_process(fill);
    CHECK(r.out.find("held 8") == std::string::npos);
    CHECK(group->oom_kills() > before);
}

TEST_CASE("control group: cgroup v2's own files count and kill (on the host's cgroup2 mount)") {
    // The v2 core needs no controller: cpu.stat and cgroup.kill are
    // in every v2 group, so this runs wherever cgroup2 is mounted and writable, beside v1 too.
    fs::path mount;
    std::istringstream mounts(read("/proc/self/mountinfo"));
    for (std::string line; std::getline(mounts, line);)
        if (line.find(" - cgroup2 ") != std::string::npos) {
            std::istringstream fields(line);
            std::string field;
            for (int i = 0; i < 5 && fields >> field; ++i) mount = field;
        }
    const fs::path parent = mount / ("gol-v2-test-" + std::to_string(::getpid()));
    if (mount.empty() || ::mkdir(parent.c_str(), 0755) != 0) {
        MESSAGE("no writable cgroup2 here");
        return;
    }
    {
        ControlGroup group({CgroupHierarchy{2, parent / "g", {"cpuacct"}}}, GroupLimits{});
        SpawnSpec spin;
        spin.argv = {"/bin/sh", "-c", "while :; do :; done"};
        spin.join_groups = group.join_fds();
        BackgroundProcess spinner(spin);
        REQUIRE(spinner.started());
        const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(20);
        while (group.cpu().value_or(std::chrono::microseconds(0)) < std::chrono::milliseconds(30) &&
               std::chrono::steady_clock::now() < until)
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        CHECK(group.cpu().value_or(std::chrono::microseconds(0)) >= std::chrono::milliseconds(30));
        // Without a cpu controller there is no quota to hold it by: its launcher stops it instead.
        CHECK_FALSE(group.can_hold());
        CHECK_FALSE(group.hold());
        group.kill();
        CHECK(spinner.end().find("signal 9") != std::string::npos);
    }
    CHECK(::rmdir(parent.c_str()) == 0);  // the group went with the object
}
