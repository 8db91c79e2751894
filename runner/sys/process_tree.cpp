#include "runner/sys/process_tree.hpp"

#include "runner/sys/unique_fd.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <charconv>
#include <memory>
#include <string>
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

// The pids in a space-separated list such as /proc/PID/task/TID/children.
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

std::vector<int> read_pids(const std::string& path) {
    std::vector<int> pids;
    append_pids(read_proc(path), pids);
    return pids;
}

struct DirCloser {
    void operator()(DIR* d) const { ::closedir(d); }
};

std::string task_dir(int pid) { return "/proc/" + std::to_string(pid) + "/task/"; }

// The children of every thread of `pid`: /proc/PID/task/TID/children lists a thread's own.
// Most processes have one thread, which the task folder's link count (2 + threads, a leader
// that exited before the others included) tells without listing the folder.
std::vector<int> children_of(int pid) {
    std::vector<int> children;
    const std::string task = task_dir(pid);
    struct stat folder {};
    if (::stat(task.c_str(), &folder) != 0) return children;
    if (folder.st_nlink == 3) {
        append_pids(read_proc(task + std::to_string(pid) + "/children"), children);
        return children;
    }
    std::unique_ptr<DIR, DirCloser> dir(::opendir(task.c_str()));
    if (!dir) return children;
    while (const dirent* entry = ::readdir(dir.get())) {
        if (entry->d_name[0] == '.') continue;
        append_pids(read_proc(task + entry->d_name + "/children"), children);
    }
    return children;
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
    // Orphans go to the subreaper's first live thread: its main thread, while that lives.
    if (adopter > 0)
        for (int child : read_pids(task_dir(adopter) + std::to_string(adopter) + "/children"))
            if (child != leader && ::getsid(child) == leader) visit(child);
    for (std::size_t i = 0; i < tree.size(); ++i)
        for (int child : children_of(tree[i])) visit(child);
    return tree;
}

StoppedTree stop_tree(int leader, int adopter) {
    StoppedTree stopped;
    std::unordered_set<int> seen;
    for (int walk = 0; walk < kMaxStopWalks; ++walk) {
        bool grew = false;
        for (int pid : walk_tree(leader, adopter, SIGSTOP))
            if (seen.insert(pid).second) {
                stopped.pids.push_back(pid);
                grew = true;
            }
        // A lone process had no one to continue it once its stop was sent.
        if (!grew || stopped.pids.size() == 1) break;
    }
    static const long ticks_per_second = ::sysconf(_SC_CLK_TCK);
    long long ticks = 0;
    for (int pid : stopped.pids)
        if (auto stat = read_stat(pid)) ticks += stat->cpu_ticks;
    stopped.cpu = std::chrono::milliseconds(ticks * 1000 / ticks_per_second);
    return stopped;
}

void signal_each(const std::vector<int>& pids, int sig) {
    for (int pid : pids) ::kill(pid, sig);
}

}  // namespace gol::runner
