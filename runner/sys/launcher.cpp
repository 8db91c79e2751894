#include "runner/sys/launcher.hpp"

#include "runner/sys/helper_programs.hpp"
#include "runner/sys/launcher/launch_protocol.h"
#include "runner/sys/pipe_pump.hpp"

#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <vector>

namespace gol::runner {

namespace fs = std::filesystem;
using namespace pipes;

namespace {

// How long a launcher may take to come up (a cold bubblewrap on a busy machine), or to report a
// move's end once told to kill it, before it counts as dead.
constexpr auto kStartLimit = std::chrono::seconds(10);
constexpr auto kKillLimit = std::chrono::seconds(2);

// One whole report, or nullopt at end of file, on an error or when `deadline` passes first.
std::optional<gol_launch_report> read_report(int fd, Clock::time_point deadline) {
    gol_launch_report report{};
    auto* at = reinterpret_cast<char*>(&report);
    std::size_t left = sizeof report;
    while (left > 0) {
        pollfd p{fd, POLLIN, 0};
        const auto wait_ms = std::max<long>(0, std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now()).count());
        const int ready = ::poll(&p, 1, static_cast<int>(wait_ms));
        if (ready < 0 && errno == EINTR) continue;
        if (ready <= 0) return std::nullopt;
        const ssize_t got = ::read(fd, at, left);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return std::nullopt;
        at += got;
        left -= static_cast<std::size_t>(got);
    }
    return report;
}

// The whole of `data`, or false once the launcher is gone (MSG_NOSIGNAL: no SIGPIPE then).
bool send_all(int fd, const char* data, std::size_t size) {
    while (size > 0) {
        const ssize_t put = ::send(fd, data, size, MSG_NOSIGNAL);
        if (put < 0 && errno == EINTR) continue;
        if (put <= 0) return false;
        data += put;
        size -= static_cast<std::size_t>(put);
    }
    return true;
}

// A request's header with its descriptors attached (at most 4, launch_protocol.h).
bool send_request(int fd, const gol_launch_request& request, const std::vector<int>& fds) {
    // In a union, for cmsghdr's alignment.
    union {
        char bytes[CMSG_SPACE(4 * sizeof(int))];
        cmsghdr align;
    } control{};
    iovec iov{const_cast<gol_launch_request*>(&request), sizeof request};
    msghdr msg{};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    if (!fds.empty()) {
        msg.msg_control = control.bytes;
        msg.msg_controllen = CMSG_SPACE(fds.size() * sizeof(int));
        cmsghdr* c = CMSG_FIRSTHDR(&msg);
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SCM_RIGHTS;
        c->cmsg_len = CMSG_LEN(fds.size() * sizeof(int));
        std::memcpy(CMSG_DATA(c), fds.data(), fds.size() * sizeof(int));
    }
    ssize_t put;
    while ((put = ::sendmsg(fd, &msg, MSG_NOSIGNAL)) < 0 && errno == EINTR) {
    }
    // The descriptors went with the first byte; a short header is finished as plain bytes.
    if (put < 0) return false;
    const auto* bytes = reinterpret_cast<const char*>(&request);
    return send_all(fd, bytes + put, sizeof request - static_cast<std::size_t>(put));
}

}  // namespace

std::optional<fs::path> launcher_program() { return find_helper(HelperKind::program, "gol-launcher"); }

std::optional<fs::path> warm_script(const std::string& name) { return find_helper(HelperKind::script, name); }

Launcher::Launcher(SpawnSpec start, bool own_uid) : start_(std::move(start)), own_uid_(own_uid) {}

Launcher::~Launcher() { stop(); }

int Launcher::pid() const { return process_ ? process_->pid() : -1; }

void Launcher::stop() {
    control_.reset();
    if (process_) process_->end();
    process_.reset();
}

std::string Launcher::start() {
    int sv[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
        throw std::runtime_error(std::string("socketpair: ") + std::strerror(errno));
    UniqueFd ours(sv[0]), theirs(sv[1]);
    SpawnSpec spec = start_;
    spec.pass_fd = SpawnSpec::PassedFd{theirs.get(), launcher_fd};
    process_ = std::make_unique<BackgroundProcess>(spec);
    theirs.reset();
    if (!process_->started()) {
        std::string why = process_->start_error();
        process_.reset();
        return why;
    }
    control_ = std::move(ours);
    std::optional<gol_launch_report> ready = read_report(control_.get(), Clock::now() + kStartLimit);
    if (ready && ready->kind == GOL_LAUNCH_READY) return "";
    control_.reset();
    std::string why = "ended before it was ready (" + process_->end() + ")";
    process_.reset();
    return why;
}

RunOutcome Launcher::run(const SpawnSpec& spec) { return *run_request(spec, ""); }

std::optional<RunOutcome> Launcher::run_warm(const SpawnSpec& spec, const std::string& warm_script) {
    if (spec.argv.size() < 2 || spec.pass_fd) throw std::logic_error("Launcher::run_warm needs a file and no pass_fd");
    return run_request(spec, warm_script);
}

std::optional<RunOutcome> Launcher::run_request(const SpawnSpec& spec, const std::string& warm_script) {
    RunOutcome outcome;
    if (spec.argv.empty() || !spec.env) throw std::logic_error("Launcher::run needs argv and env");
    const std::string name = spec.argv[0];

    gol_launch_request request{};
    request.kind = GOL_LAUNCH_RUN;
    request.argc = static_cast<std::uint32_t>(spec.argv.size());
    request.envc = static_cast<std::uint32_t>(spec.env->size());
    request.address_space = spec.limits.address_space;
    request.cpu_seconds = spec.limits.cpu_seconds;
    request.file_size = spec.limits.file_size;
    request.open_files = spec.limits.open_files;
    request.processes = spec.limits.processes;
    if (own_uid_) request.flags |= GOL_LAUNCH_NPROC;
    std::string strings = spec.cwd.string();
    strings += '\0';
    strings += name;
    strings += '\0';
    if (!warm_script.empty()) {
        request.flags |= GOL_LAUNCH_WARM;
        strings.append(warm_script).push_back('\0');
    }
    for (const std::string& a : spec.argv) strings.append(a).push_back('\0');
    for (const std::string& e : *spec.env) strings.append(e).push_back('\0');
    request.strings_bytes = static_cast<std::uint32_t>(strings.size());

    Pipe out = make_pipe();
    Pipe err = make_pipe();
    std::optional<Pipe> in;
    std::vector<int> fds = {out.write.get(), err.write.get()};
    if (spec.stdin_data) {
        in = make_pipe();
        request.flags |= GOL_LAUNCH_STDIN;
        fds.push_back(in->read.get());
    }
    if (spec.pass_fd) {
        request.flags |= GOL_LAUNCH_PASS_FD;
        request.pass_as = spec.pass_fd->as;
        fds.push_back(spec.pass_fd->fd);
    }

    // A launcher that died between moves cannot take the request (its socket is closed) and is
    // replaced once. One that took it and died before saying the move started may have started
    // it: the move is not run again, and reads as killed, as its namespace was.
    Clock::time_point sent;
    bool delivered = false;
    for (int attempt = 0; attempt < 2 && !delivered; ++attempt) {
        if (!control_) {
            if (std::string why = start(); !why.empty()) {
                outcome.spawn_error = "could not start " + name + ": its launcher " + why;
                return outcome;
            }
        }
        sent = Clock::now();
        delivered = send_request(control_.get(), request, fds);
        if (!delivered) stop();
    }
    std::optional<gol_launch_report> started;
    if (delivered && send_all(control_.get(), strings.data(), strings.size()))
        started = read_report(control_.get(), sent + kStartLimit);
    // Only the child has these ends now: their EOF is its end.
    out.write.reset();
    err.write.reset();
    if (in) in->read.reset();
    if (!delivered) {
        outcome.spawn_error = "could not start " + name + ": its launcher ended";
        return outcome;
    }
    if (!started) {
        stop();
        outcome.elapsed = std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - sent);
        outcome.kind = RunOutcome::Kind::signaled;
        outcome.signal = SIGKILL;
        return outcome;
    }
    if (started->kind == GOL_LAUNCH_FAILED) {
        if (!warm_script.empty()) return std::nullopt;
        std::string why = std::strerror(started->value);
        if (std::strcmp(started->step, "execve") != 0) why += std::string(" (") + started->step + ")";
        outcome.spawn_error = "could not start " + name + ": " + why;
        return outcome;
    }

    Streams s;
    s.out = std::move(out.read);
    s.err = std::move(err.read);
    set_nonblocking(s.out.get());
    set_nonblocking(s.err.get());
    if (in) {
        s.in = std::move(in->write);
        set_nonblocking(s.in.get());
        s.to_write = *spec.stdin_data;
        if (s.to_write.empty()) s.in.reset();
    }
    s.close_in_after = true;
    s.out_cap = spec.stdout_cap;
    s.err_cap = spec.stderr_cap;
    // A warm move's process is a fork: its time starts when it was handed the request, not at a
    // start-up it did not have (the interpreter's, at the first warm move). A plain one's counts
    // from the request and includes its exec. (steady_clock is CLOCK_MONOTONIC, whatever
    // process reads it.)
    if (started->started_ns > 0)
        sent = std::clamp(Clock::time_point(std::chrono::nanoseconds(started->started_ns)), sent, Clock::now());
    const auto deadline = sent + spec.timeout;
    auto collect = [&](RunOutcome::Kind kind) {
        outcome.kind = kind;
        outcome.out = std::move(s.out_buf);
        outcome.err = std::move(s.err_buf);
        outcome.err_truncated = s.err_truncated;
        return outcome;
    };
    // The move's end as the launcher reports it; a launcher that does not (it died) is replaced
    // at the next move, and the move reads as killed, as its namespace was.
    auto ended = [&](Clock::time_point by) {
        std::optional<gol_launch_report> end = read_report(control_.get(), by);
        if (end && end->kind == GOL_LAUNCH_ENDED) {
            outcome.max_rss_kb = static_cast<long>(end->max_rss_kb);
            if (end->cpu_us >= 0) outcome.cpu = std::chrono::microseconds(end->cpu_us);
            return end->value;
        }
        stop();
        return W_EXITCODE(0, SIGKILL);
    };

    const Pumped r = pump(s, control_.get(), deadline, [] { return false; });
    outcome.elapsed = std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - sent);
    if (r == Pumped::timed_out || r == Pumped::stdout_overflow) {
        gol_launch_request kill{};
        kill.kind = GOL_LAUNCH_KILL;
        if (send_request(control_.get(), kill, {})) ended(Clock::now() + kKillLimit);
        else stop();
        return collect(r == Pumped::timed_out ? RunOutcome::Kind::timed_out : RunOutcome::Kind::stdout_overflow);
    }
    // It ended, and the launcher has killed and reaped the rest: read what is left in the pipes.
    const int status = ended(Clock::now() + kKillLimit);
    s.in.reset();
    if (pump(s, -1, deadline, [&] { return !s.out && !s.err; }) == Pumped::stdout_overflow)
        return collect(RunOutcome::Kind::stdout_overflow);
    set_ended(outcome, status);
    return collect(outcome.kind);
}

}  // namespace gol::runner
