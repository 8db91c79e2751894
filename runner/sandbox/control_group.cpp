#include "runner/sandbox/control_group.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <random>
#include <ranges>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace gol::runner {

namespace fs = std::filesystem;

// What cgroup v1 and v2 do differently for the runner's groups, one adapter each; the rest of
// this file is what they share.
class CgroupVersion {
public:
    virtual ~CgroupVersion() = default;
    // The run's own folder `dir`, just made below `parent`, made ready for the bots' groups.
    virtual void prepare_run(const CgroupHierarchy& h, const fs::path& parent) const = 0;
    // A bot's group `dir` held to `bytes` of memory, with no swap to spill into.
    virtual void limit_memory(const fs::path& dir, std::uint64_t bytes) const = 0;
    // The file whose line "oom_kill N" counts the kernel's kills for memory.
    virtual const char* oom_file() const = 0;
    // The CPU quota's file in `dir`, with what it takes for `percent` of one CPU and for the held
    // quota, every `period_us`.
    struct Quota {
        fs::path file;
        std::string move, held;
    };
    virtual Quota quota(const fs::path& dir, std::uint32_t percent, std::uint64_t held_us,
                        std::uint64_t period_us) const = 0;
    // The CPUs of a bot's group `dir`; `cpus` empty: all of its parent's.
    virtual void limit_cpus(const fs::path& dir, const std::string& cpus) const = 0;
    // The file counting the group's CPU time, and that time read from it.
    virtual const char* cpu_file() const = 0;
    virtual std::chrono::microseconds cpu_time(std::string_view text) const = 0;
    // Kills every process of the group at once; false where the kernel cannot.
    virtual bool kill_all(const fs::path& dir) const = 0;
};

namespace {

constexpr const char* kOurs[] = {"memory", "pids", "cpu", "cpuacct", "cpuset"};
constexpr auto kSettle = std::chrono::seconds(2);
// What a held group may run: 1 ms in each 100 ms period, the least the kernel accepts.
constexpr std::uint64_t kHeldQuotaUs = 1000;
constexpr std::uint64_t kPeriodUs = 100000;

std::vector<std::string> split(std::string_view text, char by) {
    std::vector<std::string> parts;
    for (const auto part : std::views::split(text, by)) parts.emplace_back(part.begin(), part.end());
    return parts;
}

bool has(const std::vector<std::string>& list, std::string_view item) {
    return std::find(list.begin(), list.end(), item) != list.end();
}

std::string read_text(const fs::path& path) {
    std::ifstream in(path);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

bool try_write(const fs::path& path, std::string_view value) {
    const UniqueFd fd(::open(path.c_str(), O_WRONLY | O_CLOEXEC));
    return fd && ::write(fd.get(), value.data(), value.size()) == static_cast<ssize_t>(value.size());
}

void write_text(const fs::path& path, const std::string& value) {
    if (!try_write(path, value))
        throw std::runtime_error("control group: writing \"" + value + "\" to " + path.string() + ": " +
                                 std::strerror(errno));
}

UniqueFd open_file(const fs::path& path, int flags) {
    UniqueFd fd(::open(path.c_str(), flags | O_CLOEXEC));
    if (!fd) throw std::runtime_error("control group: opening " + path.string() + ": " + std::strerror(errno));
    return fd;
}

// A kernfs file read again from its start: the kernel writes it anew for each read.
std::string pread_text(const UniqueFd& fd) {
    char buf[4096];
    const ssize_t got = ::pread(fd.get(), buf, sizeof buf - 1, 0);
    return got > 0 ? std::string(buf, static_cast<std::size_t>(got)) : std::string();
}

// The number after `key ` on a line of `text` ("oom_kill 3"), or 0.
std::uint64_t keyed(std::string_view text, std::string_view key) {
    for (const std::string& line : split(text, '\n'))
        if (line.size() > key.size() && line.starts_with(key) && line[key.size()] == ' ')
            return std::strtoull(line.c_str() + key.size() + 1, nullptr, 10);
    return 0;
}

const CgroupHierarchy* with(const std::vector<CgroupHierarchy>& dirs, std::string_view controller) {
    for (const CgroupHierarchy& h : dirs)
        if (has(h.controllers, controller)) return &h;
    return nullptr;
}

// Enables a v2 hierarchy's controllers of ours for the groups below `dir`; a failure throws
// when `required`.
void hand_down(const CgroupHierarchy& h, const fs::path& dir, bool required) {
    for (const char* c : {"+memory", "+pids", "+cpu", "+cpuset"}) {
        if (!has(h.controllers, c + 1)) continue;
        if (required) write_text(dir / "cgroup.subtree_control", c);
        else try_write(dir / "cgroup.subtree_control", c);
    }
}

bool pid_alive(const std::string& name) {
    // "gol-runner-PID-SUFFIX"
    const std::vector<std::string> parts = split(name, '-');
    if (parts.size() != 4) return true;
    const long pid = std::strtol(parts[2].c_str(), nullptr, 10);
    return pid <= 0 || ::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH;
}

// Removes an empty group and the empty groups below it (their files go with them).
void remove_groups(const fs::path& dir) {
    std::error_code ec;
    for (const fs::directory_entry& e : fs::directory_iterator(dir, ec))
        if (e.is_directory(ec) && !e.is_symlink(ec)) remove_groups(e.path());
    ::rmdir(dir.c_str());
}

class CgroupV2 final : public CgroupVersion {
    void prepare_run(const CgroupHierarchy& h, const fs::path& parent) const override {
        // To the parent, best effort: a host that runs systemd has handed them down already.
        hand_down(h, parent, false);
        hand_down(h, h.dir, true);
    }
    void limit_memory(const fs::path& dir, std::uint64_t bytes) const override {
        // TCP buffers are counted in memory.max with the rest.
        write_text(dir / "memory.max", std::to_string(bytes));
        if (fs::exists(dir / "memory.swap.max")) write_text(dir / "memory.swap.max", "0");
    }
    const char* oom_file() const override { return "memory.events"; }
    Quota quota(const fs::path& dir, std::uint32_t percent, std::uint64_t held_us,
                std::uint64_t period_us) const override {
        const std::string period = " " + std::to_string(period_us);
        return {dir / "cpu.max", std::to_string(period_us * percent / 100) + period, std::to_string(held_us) + period};
    }
    void limit_cpus(const fs::path& dir, const std::string& cpus) const override {
        if (!cpus.empty()) write_text(dir / "cpuset.cpus", cpus);
    }
    const char* cpu_file() const override { return "cpu.stat"; }
    std::chrono::microseconds cpu_time(std::string_view text) const override {
        return std::chrono::microseconds(keyed(text, "usage_usec"));
    }
    bool kill_all(const fs::path& dir) const override { return try_write(dir / "cgroup.kill", "1"); }
};

class CgroupV1 final : public CgroupVersion {
    void prepare_run(const CgroupHierarchy& h, const fs::path& parent) const override {
        if (has(h.controllers, "cpuset"))
            for (const char* file : {"cpuset.cpus", "cpuset.mems"}) write_text(h.dir / file, read_text(parent / file));
    }
    void limit_memory(const fs::path& dir, std::uint64_t bytes) const override {
        const std::string value = std::to_string(bytes);
        write_text(dir / "memory.limit_in_bytes", value);
        if (fs::exists(dir / "memory.memsw.limit_in_bytes")) write_text(dir / "memory.memsw.limit_in_bytes", value);
        // TCP buffers are charged to a counter of their own, unlimited unless set: a bot held
        // 1.9 GiB of them over its loopback.
        if (fs::exists(dir / "memory.kmem.tcp.limit_in_bytes")) write_text(dir / "memory.kmem.tcp.limit_in_bytes", value);
    }
    const char* oom_file() const override { return "memory.oom_control"; }
    Quota quota(const fs::path& dir, std::uint32_t percent, std::uint64_t held_us,
                std::uint64_t period_us) const override {
        write_text(dir / "cpu.cfs_period_us", std::to_string(period_us));
        return {dir / "cpu.cfs_quota_us", std::to_string(period_us * percent / 100), std::to_string(held_us)};
    }
    void limit_cpus(const fs::path& dir, const std::string& cpus) const override {
        write_text(dir / "cpuset.mems", read_text(dir.parent_path() / "cpuset.mems"));
        write_text(dir / "cpuset.cpus", cpus.empty() ? read_text(dir.parent_path() / "cpuset.cpus") : cpus);
    }
    const char* cpu_file() const override { return "cpuacct.usage"; }
    std::chrono::microseconds cpu_time(std::string_view text) const override {
        return std::chrono::microseconds(std::strtoull(std::string(text).c_str(), nullptr, 10) / 1000);
    }
    bool kill_all(const fs::path&) const override { return false; }
};

const CgroupVersion& version_of(int number) {
    static const CgroupV1 v1;
    static const CgroupV2 v2;
    if (number == 2) return v2;
    return v1;
}

}  // namespace

std::vector<CgroupHierarchy> find_hierarchies(std::string_view mountinfo, std::string_view self_cgroup,
                                              std::string_view v2_controllers) {
    struct Mount {
        std::string root, point, type;
        std::vector<std::string> options;
    };
    std::vector<Mount> mounts;
    for (const std::string& line : split(mountinfo, '\n')) {
        const std::size_t dash = line.find(" - ");
        if (dash == std::string::npos) continue;
        const std::vector<std::string> head = split(line.substr(0, dash), ' ');
        const std::vector<std::string> tail = split(line.substr(dash + 3), ' ');
        if (head.size() < 5 || tail.size() < 3) continue;
        if (tail[0] == "cgroup" || tail[0] == "cgroup2") mounts.push_back({head[3], head[4], tail[0], split(tail[2], ',')});
    }
    // Our own group in each hierarchy, by its controllers ("" for v2).
    auto own_path = [&](const std::vector<std::string>& controllers) -> std::optional<std::string> {
        for (const std::string& line : split(self_cgroup, '\n')) {
            const std::vector<std::string> f = split(line, ':');
            if (f.size() < 3) continue;
            const std::vector<std::string> listed = split(f[1], ',');
            if (controllers.empty() ? f[1].empty() : has(listed, controllers.front())) return f[2];
        }
        return std::nullopt;
    };
    auto inside = [](const Mount& m, const std::string& path) {
        // The group as seen under the mount: a mount of a subtree (a container's) shows it from there.
        const std::string rel = m.root == "/" ? path : path.starts_with(m.root) ? path.substr(m.root.size()) : "";
        const fs::path below = fs::path(rel).relative_path();
        return below.empty() ? fs::path(m.point) : fs::path(m.point) / below;
    };

    std::vector<CgroupHierarchy> found;
    const std::vector<std::string> v2 = split(v2_controllers.substr(0, v2_controllers.find('\n')), ' ');
    for (const Mount& m : mounts)
        if (m.type == "cgroup2" && has(v2, "memory")) {
            std::vector<std::string> controllers;
            for (const char* c : kOurs)
                if (has(v2, c)) controllers.emplace_back(c);
            // cgroup v2 counts CPU time in every group, with or without controllers.
            controllers.emplace_back("cpuacct");
            // New groups go at the top: a v2 group with processes in it cannot hand controllers down.
            found.push_back({2, m.point, controllers});
            return found;
        }
    for (const Mount& m : mounts) {
        if (m.type != "cgroup") continue;
        std::vector<std::string> controllers;
        for (const char* c : kOurs)
            if (has(m.options, c)) controllers.emplace_back(c);
        if (controllers.empty()) continue;
        if (std::optional<std::string> path = own_path(controllers)) found.push_back({1, inside(m, *path), controllers});
    }
    return found;
}

ControlGroups::ControlGroups() {
    const std::string mountinfo = read_text("/proc/self/mountinfo");
    std::string v2;
    for (const std::string& line : split(mountinfo, '\n'))
        if (line.find(" - cgroup2 ") != std::string::npos) {
            const std::vector<std::string> f = split(line, ' ');
            if (f.size() > 4) v2 = read_text(fs::path(f[4]) / "cgroup.controllers");
        }
    std::vector<CgroupHierarchy> found = find_hierarchies(mountinfo, read_text("/proc/self/cgroup"), v2);
    if (found.empty()) {
        why_not_ = "the host mounts none of the memory, pids, cpu and cpuset controllers";
        return;
    }
    std::random_device random;
    std::ostringstream name;
    name << "gol-runner-" << ::getpid() << "-" << std::hex << random();
    try {
        for (CgroupHierarchy& h : found) {
            std::error_code ec;
            for (const fs::directory_entry& e : fs::directory_iterator(h.dir, ec))
                if (e.path().filename().string().starts_with("gol-runner-") && !pid_alive(e.path().filename().string()))
                    remove_groups(e.path());
            const fs::path parent = h.dir;
            h.dir /= name.str();
            if (::mkdir(h.dir.c_str(), 0755) != 0) {
                why_not_ = "cannot make a control group in " + parent.string() + ": " + std::strerror(errno) +
                           (::geteuid() != 0 ? " (the runner is not root and was delegated no group)" : "");
                break;
            }
            hierarchies_.push_back(h);
            version_of(h.version).prepare_run(h, parent);
        }
    } catch (const std::exception& e) {
        why_not_ = e.what();
    }
    if (!why_not_.empty()) {
        for (const CgroupHierarchy& h : hierarchies_) ::rmdir(h.dir.c_str());
        hierarchies_.clear();
    }
}

ControlGroups::~ControlGroups() {
    for (const CgroupHierarchy& h : hierarchies_) remove_groups(h.dir);
}

int ControlGroups::version() const { return hierarchies_.empty() ? 0 : hierarchies_.front().version; }

bool ControlGroups::holds(std::string_view controller) const { return with(hierarchies_, controller) != nullptr; }

std::string ControlGroups::holding() const {
    std::string list;
    for (const char* c : kOurs)
        if (holds(c)) list += (list.empty() ? "" : ", ") + std::string(std::strcmp(c, "cpuacct") == 0 ? "CPU time" : c);
    return list;
}

std::unique_ptr<ControlGroup> ControlGroups::make(const GroupLimits& limits) {
    std::vector<CgroupHierarchy> dirs = hierarchies_;
    const std::string name = "bot-" + std::to_string(made_++);
    for (CgroupHierarchy& h : dirs) h.dir /= name;
    return std::make_unique<ControlGroup>(std::move(dirs), limits);
}

ControlGroup::ControlGroup(std::vector<CgroupHierarchy> dirs, const GroupLimits& limits)
    : dirs_(std::move(dirs)), version_(&version_of(dirs_.empty() ? 1 : dirs_.front().version)) {
    for (const CgroupHierarchy& h : dirs_) {
        if (::mkdir(h.dir.c_str(), 0755) != 0 && errno != EEXIST)
            throw std::runtime_error("control group: mkdir " + h.dir.string() + ": " + std::strerror(errno));
        procs_.push_back(open_file(h.dir / "cgroup.procs", O_WRONLY));
    }
    auto dir = [&](std::string_view controller) { return with(dirs_, controller)->dir; };
    if (with(dirs_, "memory")) {
        if (limits.memory_bytes) version_->limit_memory(dir("memory"), limits.memory_bytes);
        oom_ = open_file(dir("memory") / version_->oom_file(), O_RDONLY);
    }
    if (limits.processes && with(dirs_, "pids")) write_text(dir("pids") / "pids.max", std::to_string(limits.processes));
    if (limits.cpu_percent && with(dirs_, "cpu")) {
        CgroupVersion::Quota quota = version_->quota(dir("cpu"), limits.cpu_percent, kHeldQuotaUs, kPeriodUs);
        write_text(quota.file, quota.move);
        quota_ = open_file(quota.file, O_WRONLY);
        move_quota_ = std::move(quota.move);
        held_quota_ = std::move(quota.held);
    }
    if (with(dirs_, "cpuset")) version_->limit_cpus(dir("cpuset"), limits.cpus);
    if (with(dirs_, "cpuacct")) cpu_ = open_file(dir("cpuacct") / version_->cpu_file(), O_RDONLY);
}

ControlGroup::~ControlGroup() {
    kill();
    procs_.clear();
    cpu_.reset();
    oom_.reset();
    quota_.reset();
    const auto until = std::chrono::steady_clock::now() + kSettle;
    for (const CgroupHierarchy& h : dirs_)
        // Busy while the last processes finish exiting.
        while (::rmdir(h.dir.c_str()) != 0 && errno == EBUSY && std::chrono::steady_clock::now() < until)
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

std::vector<int> ControlGroup::join_fds() const {
    std::vector<int> fds;
    for (const UniqueFd& fd : procs_) fds.push_back(fd.get());
    return fds;
}

std::optional<std::chrono::microseconds> ControlGroup::cpu() const {
    if (!cpu_) return std::nullopt;
    return version_->cpu_time(pread_text(cpu_));
}

std::uint64_t ControlGroup::oom_kills() const { return oom_ ? keyed(pread_text(oom_), "oom_kill") : 0; }

bool ControlGroup::set_quota(const std::string& quota) {
    return ::pwrite(quota_.get(), quota.data(), quota.size(), 0) == static_cast<ssize_t>(quota.size());
}

bool ControlGroup::hold() {
    held_ = quota_ && set_quota(held_quota_);
    return held_;
}

void ControlGroup::release() {
    if (held_ && set_quota(move_quota_)) held_ = false;
}

void ControlGroup::kill() {
    // A held process takes a signal only when its quota comes round again.
    release();
    if (!dirs_.empty() && version_->kill_all(dirs_.front().dir)) return;
    const auto until = std::chrono::steady_clock::now() + kSettle;
    for (const CgroupHierarchy& h : dirs_) {
        while (std::chrono::steady_clock::now() < until) {
            const std::string pids = read_text(h.dir / "cgroup.procs");
            if (pids.find_first_not_of(" \n") == std::string::npos) break;
            for (const std::string& pid : split(pids, '\n'))
                if (!pid.empty()) ::kill(static_cast<pid_t>(std::stol(pid)), SIGKILL);
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
    }
}

}  // namespace gol::runner
