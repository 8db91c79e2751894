#include "runner/sys/process.hpp"

#include "runner/sys/child_setup.h"
#include "runner/sys/pipe_pump.hpp"
#include "runner/sys/unique_fd.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <grp.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <thread>

extern char** environ;

namespace gol::runner {
namespace {

using namespace pipes;

// A started child that leads its own process group. Until reaped, the destructor kills the
// group and reaps it, so no exit path leaks a process.
class ChildGroup {
public:
    // pidfd_open through syscall(): glibc 2.36's <sys/pidfd.h> lacks C linkage for C++.
    ChildGroup(pid_t pid, ProcessRegistry* registry)
        : pid_(pid), pidfd_(static_cast<int>(::syscall(SYS_pidfd_open, pid, 0))), registry_(registry) {
        if (!pidfd_) throw std::runtime_error(std::string("pidfd_open: ") + std::strerror(errno));
        if (registry_) registry_->add(pid_);
    }
    ChildGroup(const ChildGroup&) = delete;
    ChildGroup& operator=(const ChildGroup&) = delete;
    ~ChildGroup() {
        if (!reaped_) kill_and_reap();
    }

    pid_t pid() const { return pid_; }
    int pidfd() const { return pidfd_.get(); }
    // Its peak resident memory, once reaped.
    long max_rss_kb() const { return usage_.ru_maxrss; }
    // Its CPU time with that of the children it reaped, once reaped.
    std::chrono::microseconds cpu() const {
        return std::chrono::seconds(usage_.ru_utime.tv_sec + usage_.ru_stime.tv_sec) +
               std::chrono::microseconds(usage_.ru_utime.tv_usec + usage_.ru_stime.tv_usec);
    }

    // Returns its wait status. Kills the group first: the leader, still unreaped,
    // keeps the group id from being reused while we signal it.
    int kill_and_reap() {
        ::kill(-pid_, SIGKILL);
        // Unregistered before the reap: once reaped, the group id may belong to someone else.
        if (registry_) registry_->remove(pid_);
        int status = 0;
        while (::wait4(pid_, &status, 0, &usage_) < 0 && errno == EINTR) {
        }
        reaped_ = true;
        // Group members orphaned by the kill are reparented to us (we are a subreaper); reap them
        // until the group is gone. Bounded, because a member whose parent escaped the group is
        // not ours to reap.
        for (const auto give_up = Clock::now() + std::chrono::seconds(2); Clock::now() < give_up;) {
            siginfo_t info{};
            while (::waitid(P_PGID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG) == 0 && info.si_pid != 0)
                info = {};
            if (::kill(-pid_, 0) != 0 && errno == ESRCH) break;
            ::kill(-pid_, SIGKILL);
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
        return status;
    }

private:
    pid_t pid_;
    UniqueFd pidfd_;
    ProcessRegistry* registry_;
    bool reaped_ = false;
    rusage usage_{};
};


// The parent's side of a freshly started child: its group, and the pipe ends we keep.
struct Started {
    std::unique_ptr<ChildGroup> child;
    UniqueFd in;  // only when stdin is a pipe
    UniqueFd out;
    UniqueFd err;
    Clock::time_point start;
    std::string error;  // set when the program could not be started
};

// What the child needs between clone() and exec. It shares our memory until it execs (vfork
// semantics): it reads the spec where it is, and reports a failure by writing `error` here.
struct ChildSetup {
    const SpawnSpec& spec;
    const char* program;
    char* const* argv;
    char* const* envp;
    gol_child_setup streams_and_limits;
    int error = 0;
    const char* step = "";
};

// Runs in the child on its own stack: only async-signal-safe calls until execve.
int child_main(void* arg) {
    auto* c = static_cast<ChildSetup*>(arg);
    auto fail = [c](const char* step) {
        c->error = errno;
        c->step = step;
        _exit(127);
    };
    for (const int group : c->spec.join_groups)
        if (::write(group, "0", 1) != 1) fail("joining its control group");
    if (!c->spec.tmpfs.empty()) {
        if (::unshare(CLONE_NEWNS) != 0) fail("unshare(CLONE_NEWNS)");
        // Private: nothing mounted here propagates back to the host.
        if (::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) fail("mount --make-rprivate /");
        for (const SpawnSpec::Tmpfs& t : c->spec.tmpfs)
            if (::mount("tmpfs", t.at.c_str(), "tmpfs", MS_NOSUID | MS_NODEV, t.options.c_str()) != 0) fail("mount tmpfs");
    }
    if (const char* step = gol_set_up_child(&c->streams_and_limits)) fail(step);
    if (const std::optional<Identity>& run_as = c->spec.run_as) {
        if (::setgroups(0, nullptr) != 0) fail("setgroups");
        if (::setgid(run_as->gid) != 0) fail("setgid");
        if (::setuid(run_as->uid) != 0) fail("setuid");
    }
    ::execve(c->program, c->argv, c->envp);
    fail("execve");
    return 127;
}

// Starts spec.argv in a process group of its own with spec.limits applied. stdin is a pipe
// when `stdin_pipe`, else /dev/null. Our pipe ends are non-blocking.
Started start_child(const SpawnSpec& spec, bool stdin_pipe) {
    Started started;
    if (spec.argv.empty()) {
        started.error = "empty command";
        return started;
    }
    Pipe out = make_pipe();
    Pipe err = make_pipe();
    std::optional<Pipe> in;
    if (stdin_pipe) in = make_pipe();

    // Looked up here, so that the child needs only execve; not found, execve fails with ENOENT.
    std::string program = spec.argv[0];
    if (program.find('/') == std::string::npos) {
        const char* path = std::getenv("PATH");
        program = find_in_path(program, path && *path ? path : "/usr/bin:/bin").value_or(program);
    }
    std::vector<char*> argv;
    argv.reserve(spec.argv.size() + 1);
    for (const std::string& a : spec.argv) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    std::vector<char*> envp;
    if (spec.env) {
        for (const std::string& e : *spec.env) envp.push_back(const_cast<char*>(e.c_str()));
        envp.push_back(nullptr);
    }
    const ResourceLimits& l = spec.limits;
    ChildSetup setup{spec,
                     program.c_str(),
                     argv.data(),
                     spec.env ? envp.data() : environ,
                     gol_child_setup{in ? in->read.get() : -1, out.write.get(), err.write.get(),
                                     spec.pass_fd ? spec.pass_fd->fd : -1, spec.pass_fd ? spec.pass_fd->as : -1,
                                     spec.cwd.empty() ? nullptr : spec.cwd.c_str(), l.address_space, l.cpu_seconds,
                                     l.file_size, l.open_files,
                                     // It counts every process of the uid on the host: only a uid of
                                     // the child's own makes it the child's limit.
                                     spec.run_as ? l.processes : 0}};

    // clone(CLONE_VM | CLONE_VFORK), as posix_spawn does: no copy of our memory, so the cost
    // does not grow with the runner's size, and rlimits can be set between fork and exec,
    // which posix_spawn cannot do. Signals stay blocked so nothing runs on the child's stack.
    std::vector<char> stack(64 * 1024);
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    started.start = Clock::now();
    pid_t pid = ::clone(child_main, stack.data() + stack.size(), CLONE_VM | CLONE_VFORK | SIGCHLD, &setup);
    int clone_errno = errno;
    pthread_sigmask(SIG_SETMASK, &old, nullptr);
    if (pid < 0) {
        started.error = std::string("could not start ") + spec.argv[0] + ": clone: " + std::strerror(clone_errno);
        return started;
    }
    if (setup.error != 0) {
        int status;
        while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
        started.error = std::string("could not start ") + spec.argv[0] + ": " + std::strerror(setup.error);
        if (std::strcmp(setup.step, "execve") != 0) started.error += std::string(" (") + setup.step + ")";
        return started;
    }
    started.child = std::make_unique<ChildGroup>(pid, spec.registry);
    set_nonblocking(out.read.get());
    set_nonblocking(err.read.get());
    started.out = std::move(out.read);
    started.err = std::move(err.read);
    if (in) {
        set_nonblocking(in->write.get());
        started.in = std::move(in->write);
    }
    return started;
}


Streams streams_of(Started& started, std::size_t out_cap, std::size_t err_cap) {
    Streams s;
    s.in = std::move(started.in);
    s.out = std::move(started.out);
    s.err = std::move(started.err);
    s.out_cap = out_cap;
    s.err_cap = err_cap;
    return s;
}

}  // namespace

RunOutcome run_process(const SpawnSpec& spec) {
    Started started = start_child(spec, spec.stdin_data.has_value());
    if (!started.child) {
        RunOutcome outcome;
        outcome.spawn_error = started.error;
        return outcome;
    }
    ChildGroup& child = *started.child;
    RunOutcome outcome = run_to_end(spec, streams_of(started, spec.stdout_cap, spec.stderr_cap), child.pidfd(),
                                    started.start, [&](bool) { return child.kill_and_reap(); });
    outcome.max_rss_kb = child.max_rss_kb();
    outcome.cpu = child.cpu();
    return outcome;
}

RunOutcome run_to_end(const CommandSpec& spec, Streams s, int end_fd, Clock::time_point start,
                      const std::function<int(bool killed)>& end) {
    RunOutcome outcome;
    if (spec.stdin_data) s.to_write = *spec.stdin_data;
    if (s.to_write.empty()) s.in.reset();
    s.close_in_after = true;
    const auto deadline = start + spec.timeout;
    // Until it ends: stdin is fed, stdout and stderr drained.
    const Pumped r = pump(s, end_fd, deadline, [] { return false; });
    outcome.elapsed = std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - start);
    if (r == Pumped::timed_out || r == Pumped::stdout_overflow) {
        end(true);
        outcome.kind = r == Pumped::timed_out ? RunOutcome::Kind::timed_out : RunOutcome::Kind::stdout_overflow;
    } else {
        // It ended, and `end` killed what it left: read what is still in the pipes. A leftover
        // that escaped and holds them open is not waited for past the deadline.
        const int status = end(false);
        s.in.reset();
        if (pump(s, -1, deadline, [&] { return !s.out && !s.err; }) == Pumped::stdout_overflow)
            outcome.kind = RunOutcome::Kind::stdout_overflow;
        else
            set_ended(outcome, status);
    }
    outcome.out = std::move(s.out_buf);
    outcome.err = std::move(s.err_buf);
    outcome.err_truncated = s.err_truncated;
    return outcome;
}

std::optional<std::string> find_in_path(const std::string& name, std::string_view dirs) {
    while (!dirs.empty()) {
        const std::size_t colon = dirs.find(':');
        std::string candidate = std::string(dirs.substr(0, colon)) + "/" + name;
        if (::access(candidate.c_str(), X_OK) == 0) return candidate;
        dirs = colon == std::string_view::npos ? std::string_view{} : dirs.substr(colon + 1);
    }
    return std::nullopt;
}

void ProcessRegistry::add(int pgid) {
    std::lock_guard lock(mutex_);
    groups_.insert(pgid);
}

void ProcessRegistry::remove(int pgid) {
    std::lock_guard lock(mutex_);
    groups_.erase(pgid);
}

void ProcessRegistry::kill_all() {
    std::lock_guard lock(mutex_);
    for (int pgid : groups_) ::kill(-pgid, SIGKILL);
}

void become_subreaper() { ::prctl(PR_SET_CHILD_SUBREAPER, 1); }

Ended ended_by(int wait_status) {
    return {WIFEXITED(wait_status) ? WEXITSTATUS(wait_status) : 0, WIFSIGNALED(wait_status) ? WTERMSIG(wait_status) : 0};
}

std::string Ended::words() const {
    return signal ? "killed by signal " + std::to_string(signal) + " (" + ::strsignal(signal) + ")"
                  : "exit status " + std::to_string(exit_status);
}

void set_ended(RunOutcome& outcome, int wait_status) {
    const Ended ended = ended_by(wait_status);
    outcome.kind = ended.signal ? RunOutcome::Kind::signaled : RunOutcome::Kind::exited;
    outcome.signal = ended.signal;
    outcome.exit_status = ended.exit_status;
}

struct BackgroundProcess::State : Started {};

BackgroundProcess::BackgroundProcess(const SpawnSpec& spec) {
    Started started = start_child(spec, false);
    if (!started.child) {
        start_error_ = started.error;
        return;
    }
    state_ = std::make_unique<State>(State{std::move(started)});
}

BackgroundProcess::~BackgroundProcess() = default;

bool BackgroundProcess::started() const { return state_ != nullptr; }

int BackgroundProcess::pid() const { return state_->child->pid(); }

std::string BackgroundProcess::end() {
    if (!state_) return start_error_;
    Started& started = *state_;
    const int status = started.child->kill_and_reap();
    Streams s = streams_of(started, 0, 4096);
    s.out.reset();
    pump(s, -1, Clock::now() + std::chrono::milliseconds(100), [&] { return !s.err; });
    state_.reset();
    while (!s.err_buf.empty() && std::isspace(static_cast<unsigned char>(s.err_buf.back()))) s.err_buf.pop_back();
    return ended_by(status).words() + (s.err_buf.empty() ? "" : ": " + s.err_buf);
}

std::string describe(const RunOutcome& o) {
    switch (o.kind) {
        case RunOutcome::Kind::exited:
        case RunOutcome::Kind::signaled: return Ended{o.exit_status, o.signal}.words();
        case RunOutcome::Kind::timed_out: return "timeout";
        case RunOutcome::Kind::stdout_overflow: return "output over the cap";
        case RunOutcome::Kind::spawn_failed: return o.spawn_error;
    }
    return "unknown";
}

}  // namespace gol::runner
