#include "runner/process_tree.hpp"

#include "runner/unique_fd.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <unistd.h>

#include <array>
#include <charconv>
#include <memory>
#include <string>
#include <thread>
#include <unordered_set>

namespace gol::runner {

namespace {

// Enough for a tree that forks in a loop to be caught by a later walk, few enough that a
// tree that keeps changing costs a bounded time.
constexpr int kMaxStopWalks = 8;

// The whole of a /proc file; empty when it cannot be read (the process is gone).
std::string read_proc(const std::string& path) {
    std::string text;
    UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    if (!fd) return text;
    std::array<char, 4096> buf;
    for (ssize_t got; (got = ::read(fd.get(), buf.data(), buf.size())) > 0;)
        text.append(buf.data(), static_cast<std::size_t>(got));
    return text;
}

// The pids in a space-separated list such as /proc/TID/children.
void append_pids(std::string_view text, std::vector<int>& out) {
    const char* p = text.data();
    const char* end = p + text.size();
    while (p < end) {
        int pid = 0;
        auto [next, ec] = std::from_chars(p, end, pid);
        if (ec == std::errc() && pid > 0) out.push_back(pid);
        p = ec == std::errc() ? next : p + 1;
    }
}

struct DirCloser {
    void operator()(DIR* d) const { ::closedir(d); }
};

// The children of every thread of `pid`: /proc/TID/children lists a thread's own.
std::vector<int> children_of(int pid) {
    std::vector<int> children;
    const std::string task = "/proc/" + std::to_string(pid) + "/task";
    std::unique_ptr<DIR, DirCloser> dir(::opendir(task.c_str()));
    if (!dir) return children;
    while (const dirent* entry = ::readdir(dir.get())) {
        if (entry->d_name[0] == '.') continue;
        append_pids(read_proc(task + "/" + entry->d_name + "/children"), children);
    }
    return children;
}

// A process runs into its pending stop only when next scheduled; a game's bots share the
// runner's CPU, so it may have to wait for us. Waits, boundedly, until no process shows
// running or sleeping, so that a tree is stopped, not only stopping, when stop_tree returns.
// One waiting in the kernel (D) cannot return to its code without stopping, so it is not
// waited for. A process still running may have been continued by another before that one
// stopped: it is sent its stop again.
void wait_stopped(const std::vector<int>& pids) {
    using Clock = std::chrono::steady_clock;
    const auto give_up = Clock::now() + std::chrono::milliseconds(100);
    std::vector<int> waiting = pids;
    for (int round = 0;; ++round) {
        std::erase_if(waiting, [](int pid) {
            auto stat = read_stat(pid);
            return !stat || (stat->state != 'R' && stat->state != 'S');
        });
        if (waiting.empty() || Clock::now() >= give_up) return;
        for (int pid : waiting) ::kill(pid, SIGSTOP);
        // Yielding lets a process on our CPU run into its stop; past a few rounds something
        // else holds the CPU, and sleeping costs less.
        if (round < 8) ::sched_yield();
        else std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
}

}  // namespace

std::optional<ProcStat> parse_stat(std::string_view text) {
    // The command name, field 2, is in parentheses and may itself hold spaces and ')'.
    const std::size_t close = text.rfind(')');
    if (close == std::string_view::npos) return std::nullopt;
    std::string_view rest = text.substr(close + 1);
    // Fields from 3 on: state, ppid, pgrp, session, ..., utime (14), stime, cutime, cstime (17).
    std::array<long long, 18> field{};
    ProcStat stat;
    int n = 3;
    for (std::size_t at = 0; n <= 17;) {
        while (at < rest.size() && rest[at] == ' ') ++at;
        if (at >= rest.size()) return std::nullopt;
        if (n == 3) {
            stat.state = rest[at++];
        } else {
            auto [next, ec] = std::from_chars(rest.data() + at, rest.data() + rest.size(), field[n]);
            if (ec != std::errc()) return std::nullopt;
            at = static_cast<std::size_t>(next - rest.data());
        }
        ++n;
    }
    stat.session = static_cast<int>(field[6]);
    stat.cpu_ticks = field[14] + field[15] + field[16] + field[17];
    return stat;
}

std::optional<ProcStat> read_stat(int pid) { return parse_stat(read_proc("/proc/" + std::to_string(pid) + "/stat")); }

std::vector<int> walk_tree(int leader, int adopter, int sig) {
    std::vector<int> tree;
    std::unordered_set<int> seen;
    auto visit = [&](int pid) {
        if (tree.size() >= kMaxTreeProcesses || !seen.insert(pid).second) return;
        // Before its children are read: with a stop pending a process cannot fork.
        if (sig != 0) ::kill(pid, sig);
        tree.push_back(pid);
    };
    visit(leader);
    if (adopter > 0)
        for (int child : children_of(adopter))
            if (child != leader)
                if (auto stat = read_stat(child); stat && stat->session == leader) visit(child);
    for (std::size_t i = 0; i < tree.size(); ++i)
        for (int child : children_of(tree[i])) visit(child);
    return tree;
}

std::vector<int> stop_tree(int leader, int adopter) {
    std::vector<int> stopped;
    std::unordered_set<int> seen;
    for (int walk = 0; walk < kMaxStopWalks; ++walk) {
        bool grew = false;
        for (int pid : walk_tree(leader, adopter, SIGSTOP))
            if (seen.insert(pid).second) {
                stopped.push_back(pid);
                grew = true;
            }
        // A lone process had no one to continue it once its stop was sent.
        if (!grew || stopped.size() == 1) break;
    }
    wait_stopped(stopped);
    return stopped;
}

void signal_each(const std::vector<int>& pids, int sig) {
    for (int pid : pids) ::kill(pid, sig);
}

std::chrono::milliseconds cpu_time(const std::vector<int>& pids) {
    static const long ticks_per_second = ::sysconf(_SC_CLK_TCK);
    long long ticks = 0;
    for (int pid : pids)
        if (auto stat = read_stat(pid)) ticks += stat->cpu_ticks;
    return std::chrono::milliseconds(ticks * 1000 / ticks_per_second);
}

}  // namespace gol::runner
