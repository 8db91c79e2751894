// A control group per bot per game (issue 28): the kernel holds the bot's whole tree (its
// sandbox, launcher and every process they start) to a memory limit that covers what an rlimit
// does not (shared memory, memfd, tmpfs pages, kernel memory), a process count, a CPU quota and
// a set of CPUs, during the move; it holds a persistent bot between its moves and counts the
// tree's CPU time. cgroup v2 where the host has its controllers there, else the v1 controllers:
// one adapter each behind this interface (control_group.cpp).
#pragma once

#include "runner/sys/unique_fd.hpp"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gol::runner {

// What a bot's group holds it to; 0 or empty leaves one alone.
struct GroupLimits {
    std::uint64_t memory_bytes = 0;
    std::uint64_t processes = 0;
    std::uint32_t cpu_percent = 0;  // of one CPU, over every 100 ms
    std::string cpus;  // a cpuset list such as "3" or "0-1"
};

// One hierarchy the runner makes groups in: a mounted cgroup filesystem and what it controls.
struct CgroupHierarchy {
    int version = 1;
    std::filesystem::path dir;  // the runner's own group in it, where new groups go
    std::vector<std::string> controllers;  // "memory", "pids", "cpu", "cpuacct", "cpuset"
};

// The hierarchies to use, from /proc/self/mountinfo and /proc/self/cgroup: cgroup v2 when its
// root offers the memory controller, else every v1 hierarchy with one of ours. Pure, for tests.
std::vector<CgroupHierarchy> find_hierarchies(std::string_view mountinfo, std::string_view self_cgroup,
                                              std::string_view v2_controllers);

class ControlGroup;
class CgroupVersion;

// This run's groups: a folder of its own in each hierarchy, removed when it goes (a runner
// killed before that leaves it; the next run removes it). Thread-safe.
class ControlGroups {
public:
    // The host's. None are made unless the runner can write there (root, or a delegated tree);
    // then available() is false and why_not() says why.
    ControlGroups();
    ~ControlGroups();
    ControlGroups(const ControlGroups&) = delete;
    ControlGroups& operator=(const ControlGroups&) = delete;

    bool available() const { return !hierarchies_.empty(); }
    const std::string& why_not() const { return why_not_; }
    int version() const;
    // Which of memory, pids, cpu, cpuset and the CPU count hold: "memory, pids, ...".
    std::string holding() const;
    bool holds(std::string_view controller) const;

    // A new group for one bot's game or one build; throws with the step that failed.
    std::unique_ptr<ControlGroup> make(const GroupLimits& limits);

private:
    std::vector<CgroupHierarchy> hierarchies_;
    std::string why_not_;
    std::atomic<unsigned> made_{0};
};

class ControlGroup {
public:
    ControlGroup(std::vector<CgroupHierarchy> dirs, const GroupLimits& limits);
    // Thaws and kills whatever is left in it, then removes it.
    ~ControlGroup();
    ControlGroup(const ControlGroup&) = delete;
    ControlGroup& operator=(const ControlGroup&) = delete;

    // cgroup.procs of each hierarchy, open for writing: a child joins by writing "0" to each
    // before it execs (SpawnSpec::join_groups), so nothing it starts is ever outside.
    std::vector<int> join_fds() const;

    // The CPU time of every process that was ever in it; nullopt without a CPU count.
    std::optional<std::chrono::microseconds> cpu() const;
    // How many times the kernel killed one of its processes for memory.
    std::uint64_t oom_kills() const;
    // A persistent bot between its moves: every process in it held to 1% of one CPU by its CPU
    // quota, a write each way (false: it has no quota); release() gives the move's quota back.
    bool can_hold() const { return static_cast<bool>(quota_); }
    bool hold();
    void release();
    // SIGKILLs every process in it.
    void kill();

private:
    bool set_quota(const std::string& quota);

    std::vector<CgroupHierarchy> dirs_;
    const CgroupVersion* version_;
    std::vector<UniqueFd> procs_;
    UniqueFd cpu_, oom_, quota_;
    std::string move_quota_, held_quota_;  // what quota_ takes, as written
    bool held_ = false;
};

}  // namespace gol::runner
