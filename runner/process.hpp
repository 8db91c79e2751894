// Runs one bot process to completion under a wall-clock limit, capturing its output.
#pragma once

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace gol::runner {

// The process groups of bots running right now, so an interrupted runner can kill them all
// rather than leave a hanging bot behind. Thread-safe.
class ProcessRegistry {
public:
    void add(int pgid);
    void remove(int pgid);
    // SIGKILLs every registered group; each leader is still unreaped, so its id is not reused.
    void kill_all();

private:
    std::mutex mutex_;
    std::set<int> groups_;
};

struct SpawnSpec {
    std::vector<std::string> argv;  // argv[0] without a slash is looked up in PATH
    std::filesystem::path cwd;
    std::optional<std::string> stdin_data;  // nullopt: stdin is /dev/null
    std::optional<std::vector<std::string>> env;  // nullopt: inherit the runner's
    std::chrono::milliseconds timeout{1000};
    std::size_t stdout_cap = std::size_t{1} << 20;
    std::size_t stderr_cap = std::size_t{64} << 10;
    ProcessRegistry* registry = nullptr;  // optional: where the running group is registered
};

struct RunOutcome {
    enum class Kind { exited, signaled, timed_out, stdout_overflow, spawn_failed };
    Kind kind = Kind::spawn_failed;
    int exit_status = 0;  // Kind::exited
    int signal = 0;       // Kind::signaled
    std::string out;
    std::string err;  // at most stderr_cap bytes; the rest is counted, not kept
    bool err_truncated = false;
    std::string spawn_error;  // Kind::spawn_failed
    std::chrono::microseconds elapsed{0};
};

// Starts argv without a shell in a process group of its own; stdout and stderr are read
// concurrently. On timeout or stdout overflow the whole group is killed; when the process
// ends on its own, whatever stayed behind in its group is killed too. Everything is reaped.
RunOutcome run_process(const SpawnSpec& spec);

// Makes orphaned descendants of bots our children so run_process can reap them instead of
// leaving zombies to an init that may not reap. Call once at program start.
void become_subreaper();

// One line for logs and forfeit reasons, e.g. "exit status 3", "killed by signal 11".
std::string describe(const RunOutcome& outcome);

}  // namespace gol::runner
