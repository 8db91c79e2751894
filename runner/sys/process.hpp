// The runner's own processes (a bot's and a build's are its launcher's: sandbox/launcher.hpp):
// starting one in a session of its own with limits, control groups and mounts (the launcher
// itself, probes, test fixtures), reaping it and its group; how a process ended, in words.
#pragma once

#include "runner/sys/pipe_pump.hpp"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <sys/types.h>

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

// Kernel limits set on a bot before it starts (setrlimit); 0 leaves one unset. Core dumps are
// always off.
struct ResourceLimits {
    std::uint64_t address_space = 0;  // bytes of virtual memory
    std::uint64_t cpu_seconds = 0;
    std::uint64_t file_size = 0;  // bytes
    std::uint64_t open_files = 0;
    // RLIMIT_NPROC: fork and thread creation fail (EAGAIN) once the uid has this many processes
    // and threads. It counts every process of the uid on the host, so it is set only with run_as
    // (a uid of the child's own); otherwise it is left alone.
    std::uint64_t processes = 0;
};

// A host user and group to run as.
struct Identity {
    uid_t uid;
    gid_t gid;
};

// What runs, with what and under which limits, wherever it is started: a bot's move through its
// launcher (launcher.hpp) or a process of the runner's own (SpawnSpec).
struct CommandSpec {
    std::vector<std::string> argv;  // argv[0] a path; a SpawnSpec's may be a name, looked up in the PATH
    std::filesystem::path cwd;
    std::optional<std::string> stdin_data;  // nullopt: stdin is /dev/null
    std::optional<std::vector<std::string>> env;  // nullopt: inherit the runner's
    std::chrono::milliseconds timeout{1000};
    std::size_t stdout_cap = std::size_t{1} << 20;
    std::size_t stderr_cap = std::size_t{64} << 10;
    ResourceLimits limits;
    // One of our descriptors the child gets under another number (above 2), close-on-exec
    // cleared there; ours may stay close-on-exec, so no concurrent spawn inherits it.
    struct PassedFd {
        int fd;
        int as;
    };
    std::optional<PassedFd> pass_fd;
};

// A process the runner starts itself (run_process, BackgroundProcess): the command, and how.
struct SpawnSpec : CommandSpec {
    ProcessRegistry* registry = nullptr;  // optional: where the running group is registered
    // The child drops every supplementary group and switches to this group and user after its
    // limits are set, just before exec; that takes a root runner. nullopt: the runner's own.
    std::optional<Identity> run_as;
    // Descriptors of cgroup.procs files (ControlGroup::join_fds): the child joins each group
    // first thing, so it and all it starts live there from the start.
    std::vector<int> join_groups;
    // Memory-backed filesystems the child mounts over folders of the host before it execs, in a
    // mount namespace of its own, so the host never sees them and they go with its last
    // process: a size and an inode limit the kernel keeps (tmpfs `options`). Needs root.
    struct Tmpfs {
        std::filesystem::path at;
        std::string options;
    };
    std::vector<Tmpfs> tmpfs;
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
    long max_rss_kb = 0;  // the process's peak resident memory (not its descendants')
    // User plus system CPU time of the process and the children it waited for (wait4's rusage);
    // none where it is not known (a warm move, whose process the launcher does not reap).
    std::optional<std::chrono::microseconds> cpu;
    // The kernel killed a process of the bot's control group for memory meanwhile.
    bool out_of_memory = false;
};

// How a process ended, decoded from its wait status: the one decoder, and its words.
struct Ended {
    int exit_status = 0;
    int signal = 0;  // the signal that killed it; 0 when it exited
    // "exit status 3", "killed by signal 11 (Segmentation fault)".
    std::string words() const;
};
Ended ended_by(int wait_status);

// Sets kind (exited or signaled), exit_status and signal from a process's wait status.
void set_ended(RunOutcome& outcome, int wait_status);

// Starts argv without a shell in a session and process group of its own; stdout and stderr are read
// concurrently. On timeout or stdout overflow the whole group is killed; when the process
// ends on its own, whatever stayed behind in its group is killed too. Everything is reaped.
RunOutcome run_process(const SpawnSpec& spec);

// The rest of a one-shot run once its process started (run_process, Launcher::run), over our
// ends of its pipes: feeds spec.stdin_data and drains the output under its caps until the
// process ends (`end_fd` turns readable), spec.timeout from `start` passes or stdout overflows.
// `end(killed)` then ends it, or, when it ended by itself, kills what it left; it returns the
// wait status.
RunOutcome run_to_end(const CommandSpec& spec, pipes::Streams s, int end_fd, pipes::Clock::time_point start,
                      const std::function<int(bool killed)>& end);

// A helper child that runs until this goes (its whole group is killed and reaped then), with its
// stdin, stdout and stderr on pipes of which only stderr is kept, to tell why it ended early.
class BackgroundProcess {
public:
    // Starts spec.argv (spec.timeout, stdin_data and the caps are not used). Check started().
    explicit BackgroundProcess(const SpawnSpec& spec);
    ~BackgroundProcess();
    BackgroundProcess(const BackgroundProcess&) = delete;
    BackgroundProcess& operator=(const BackgroundProcess&) = delete;

    bool started() const;
    const std::string& start_error() const { return start_error_; }
    // Only when started(); unreaped, so it names no other process, until end().
    int pid() const;
    // Kills its group, reaps it and says how it ended, with what it wrote on stderr.
    std::string end();

private:
    struct State;
    std::unique_ptr<State> state_;
    std::string start_error_;
};

// The first executable `dirs`/`name` ("/usr/bin:/bin" style list), or nullopt.
std::optional<std::string> find_in_path(const std::string& name, std::string_view dirs);

// Makes orphaned descendants of our processes our children, so that they are reaped here instead
// of left as zombies to an init that may not reap. Call once at program start.
void become_subreaper();

// One line for logs and forfeit reasons, e.g. "exit status 3", "killed by signal 11".
std::string describe(const RunOutcome& outcome);

}  // namespace gol::runner
