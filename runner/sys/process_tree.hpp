// A bot's processes as one tree, found through /proc: stopped, continued, killed and timed
// together. Process ids are those of the caller's PID namespace (a sandboxed bot's processes
// are seen with host pids).
#pragma once

#include <chrono>
#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

namespace gol::runner {

// `leader` and every process descended from it, through /proc/PID/task/TID/children. With an
// `adopter` (a subreaper's pid; 0: none), also its children in the session `leader` leads, and
// their descendants: the subreaper adopts the bot's orphans (into its main thread). Each
// process is sent `sig` (0: none) as it is found, before its children are read. At most
// kMaxTreeProcesses.
std::vector<int> walk_tree(int leader, int adopter, int sig);

inline constexpr std::size_t kMaxTreeProcesses = 4096;

// What /proc/PID/stat tells of a process.
struct ProcStat {
    char state = '?';  // R, S, D, T (stopped), Z, ...
    long long cpu_ticks = 0;  // utime + stime + cutime + cstime, in clock ticks
};

// Parses the text of /proc/PID/stat; nullopt if it is not that.
std::optional<ProcStat> parse_stat(std::string_view text);

// Reads /proc/PID/stat; nullopt when the process is gone.
std::optional<ProcStat> read_stat(int pid);

struct StoppedTree {
    std::vector<int> pids;
    // Their CPU time, with that of the children they reaped (ProcStat::cpu_ticks), as their
    // stops were sent. A process gone counts nothing.
    std::chrono::milliseconds cpu{0};
};

// Stops the tree: walk_tree with SIGSTOP, again until a walk finds no process the earlier ones
// missed (a process continued by a sibling before its own stop could fork meanwhile), at most
// a few times; a process with a stop pending cannot fork, so the last walk saw all there was.
// A stop takes effect when its process is next scheduled, before it runs any more of its own
// code; until then /proc shows it running or sleeping. Not waiting for that saves a switch to
// each process (a game's bots share the runner's CPU, which may be busy).
StoppedTree stop_tree(int leader, int adopter);

void signal_each(const std::vector<int>& pids, int sig);

}  // namespace gol::runner
