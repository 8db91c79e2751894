#include "runner/process.hpp"

#include "runner/unique_fd.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/syscall.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <thread>

extern char** environ;

namespace gol::runner {
namespace {

using Clock = std::chrono::steady_clock;

struct Pipe {
    UniqueFd read;
    UniqueFd write;
};

Pipe make_pipe() {
    int fds[2];
    // O_CLOEXEC: a pipe end leaking into a bot spawned concurrently by another thread would keep
    // this bot's stdout open and hide its EOF.
    if (::pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error(std::string("pipe2: ") + std::strerror(errno));
    return {UniqueFd(fds[0]), UniqueFd(fds[1])};
}

// posix_spawn's C structures, released on every path.
struct SpawnAttrs {
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attr;
    SpawnAttrs() {
        posix_spawn_file_actions_init(&actions);
        posix_spawnattr_init(&attr);
    }
    ~SpawnAttrs() {
        posix_spawn_file_actions_destroy(&actions);
        posix_spawnattr_destroy(&attr);
    }
    SpawnAttrs(const SpawnAttrs&) = delete;
    SpawnAttrs& operator=(const SpawnAttrs&) = delete;
};

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

    int pidfd() const { return pidfd_.get(); }

    // Returns the leader's wait status. Kills the group first: the leader, still unreaped,
    // keeps the group id from being reused while we signal it.
    int kill_and_reap() {
        ::kill(-pid_, SIGKILL);
        // Unregistered before the reap: once reaped, the group id may belong to someone else.
        if (registry_) registry_->remove(pid_);
        int status = 0;
        while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
        }
        reaped_ = true;
        reap_stragglers();
        return status;
    }

private:
    // Group members orphaned by the kill are reparented to us (we are a subreaper); reap them
    // until the group is gone. Bounded, because a member whose parent escaped the group is
    // not ours to reap.
    void reap_stragglers() {
        const auto give_up = Clock::now() + std::chrono::seconds(2);
        while (Clock::now() < give_up) {
            siginfo_t info{};
            while (::waitid(P_PGID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG) == 0 && info.si_pid != 0)
                info = {};
            if (::kill(-pid_, 0) != 0 && errno == ESRCH) return;
            ::kill(-pid_, SIGKILL);
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
    }

    pid_t pid_;
    UniqueFd pidfd_;
    ProcessRegistry* registry_;
    bool reaped_ = false;
};

void set_nonblocking(int fd) { ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK); }

}  // namespace

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

RunOutcome run_process(const SpawnSpec& spec) {
    RunOutcome outcome;
    if (spec.argv.empty()) {
        outcome.spawn_error = "empty command";
        return outcome;
    }

    Pipe out = make_pipe();
    Pipe err = make_pipe();
    std::optional<Pipe> in;
    if (spec.stdin_data) in = make_pipe();

    SpawnAttrs sa;
    if (in) {
        posix_spawn_file_actions_adddup2(&sa.actions, in->read.get(), 0);
    } else {
        posix_spawn_file_actions_addopen(&sa.actions, 0, "/dev/null", O_RDONLY, 0);
    }
    posix_spawn_file_actions_adddup2(&sa.actions, out.write.get(), 1);
    posix_spawn_file_actions_adddup2(&sa.actions, err.write.get(), 2);
    if (!spec.cwd.empty()) posix_spawn_file_actions_addchdir_np(&sa.actions, spec.cwd.c_str());

    // The runner ignores SIGPIPE; ignored dispositions survive exec, so restore the defaults.
    sigset_t defaults;
    sigemptyset(&defaults);
    sigaddset(&defaults, SIGPIPE);
    sigaddset(&defaults, SIGINT);
    sigaddset(&defaults, SIGTERM);
    sigset_t empty_mask;
    sigemptyset(&empty_mask);
    posix_spawnattr_setsigdefault(&sa.attr, &defaults);
    posix_spawnattr_setsigmask(&sa.attr, &empty_mask);
    posix_spawnattr_setpgroup(&sa.attr, 0);
    posix_spawnattr_setflags(&sa.attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);

    std::vector<char*> argv;
    argv.reserve(spec.argv.size() + 1);
    for (const std::string& a : spec.argv) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    std::vector<char*> envp;
    if (spec.env) {
        for (const std::string& e : *spec.env) envp.push_back(const_cast<char*>(e.c_str()));
        envp.push_back(nullptr);
    }

    const auto start = Clock::now();
    pid_t pid = -1;
    // vfork-based in glibc: the cost does not grow with the runner's memory.
    int rc = ::posix_spawnp(&pid, argv[0], &sa.actions, &sa.attr, argv.data(), spec.env ? envp.data() : environ);
    if (rc != 0) {
        outcome.spawn_error = std::string("could not start ") + spec.argv[0] + ": " + std::strerror(rc);
        return outcome;
    }
    ChildGroup child(pid, spec.registry);
    out.write.reset();
    err.write.reset();
    if (in) in->read.reset();

    set_nonblocking(out.read.get());
    set_nonblocking(err.read.get());
    std::size_t stdin_written = 0;
    if (in) {
        set_nonblocking(in->write.get());
        if (spec.stdin_data->empty()) in->write.reset();
    }

    const auto deadline = start + spec.timeout;
    std::array<char, 65536> buf;
    bool exited = false;
    int status = 0;
    auto finish = [&](RunOutcome::Kind kind) {
        outcome.kind = kind;
        outcome.elapsed = std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - start);
    };

    while (out.read || err.read || !exited) {
        auto now = Clock::now();
        if (now >= deadline) {
            if (!exited) {
                child.kill_and_reap();
                finish(RunOutcome::Kind::timed_out);
                return outcome;
            }
            break;  // The bot ended in time; a leftover holding the pipes open is not waited for.
        }
        std::array<pollfd, 4> fds{};
        nfds_t n = 0;
        int out_i = -1, err_i = -1, pid_i = -1, in_i = -1;
        if (out.read) { out_i = n; fds[n++] = {out.read.get(), POLLIN, 0}; }
        if (err.read) { err_i = n; fds[n++] = {err.read.get(), POLLIN, 0}; }
        if (!exited) { pid_i = n; fds[n++] = {child.pidfd(), POLLIN, 0}; }
        if (in && in->write) { in_i = n; fds[n++] = {in->write.get(), POLLOUT, 0}; }
        auto wait_ms = std::chrono::ceil<std::chrono::milliseconds>(deadline - now).count();
        int ready = ::poll(fds.data(), n, static_cast<int>(wait_ms));
        if (ready < 0) {
            if (errno == EINTR) continue;
            throw std::runtime_error(std::string("poll: ") + std::strerror(errno));
        }
        if (out_i >= 0 && fds[out_i].revents) {
            ssize_t got = ::read(out.read.get(), buf.data(), buf.size());
            if (got > 0) {
                outcome.out.append(buf.data(), static_cast<std::size_t>(got));
                if (outcome.out.size() > spec.stdout_cap) {
                    if (!exited) child.kill_and_reap();
                    outcome.out.resize(spec.stdout_cap);
                    finish(RunOutcome::Kind::stdout_overflow);
                    return outcome;
                }
            } else if (got == 0 || (errno != EAGAIN && errno != EINTR)) {
                out.read.reset();
            }
        }
        if (err_i >= 0 && fds[err_i].revents) {
            ssize_t got = ::read(err.read.get(), buf.data(), buf.size());
            if (got > 0) {
                std::size_t room = spec.stderr_cap - std::min(spec.stderr_cap, outcome.err.size());
                std::size_t keep = std::min(room, static_cast<std::size_t>(got));
                outcome.err.append(buf.data(), keep);
                if (keep < static_cast<std::size_t>(got)) outcome.err_truncated = true;
            } else if (got == 0 || (errno != EAGAIN && errno != EINTR)) {
                err.read.reset();
            }
        }
        if (in_i >= 0 && fds[in_i].revents) {
            const std::string& data = *spec.stdin_data;
            ssize_t put = ::write(in->write.get(), data.data() + stdin_written, data.size() - stdin_written);
            if (put > 0) stdin_written += static_cast<std::size_t>(put);
            // A bot that closes stdin without reading it all is its own business.
            if (stdin_written == data.size() || (put < 0 && errno != EAGAIN && errno != EINTR))
                in->write.reset();
        }
        if (pid_i >= 0 && fds[pid_i].revents) {
            exited = true;
            outcome.elapsed = std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - start);
            status = child.kill_and_reap();
        }
    }
    if (!exited) status = child.kill_and_reap();

    if (WIFSIGNALED(status)) {
        outcome.kind = RunOutcome::Kind::signaled;
        outcome.signal = WTERMSIG(status);
    } else {
        outcome.kind = RunOutcome::Kind::exited;
        outcome.exit_status = WEXITSTATUS(status);
    }
    if (outcome.elapsed.count() == 0)
        outcome.elapsed = std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - start);
    return outcome;
}

std::string describe(const RunOutcome& o) {
    switch (o.kind) {
        case RunOutcome::Kind::exited: return "exit status " + std::to_string(o.exit_status);
        case RunOutcome::Kind::signaled:
            return "killed by signal " + std::to_string(o.signal) + " (" + ::strsignal(o.signal) + ")";
        case RunOutcome::Kind::timed_out: return "timeout";
        case RunOutcome::Kind::stdout_overflow: return "output over the cap";
        case RunOutcome::Kind::spawn_failed: return o.spawn_error;
    }
    return "unknown";
}

}  // namespace gol::runner
