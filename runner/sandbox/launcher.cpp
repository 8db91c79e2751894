#include "runner/sandbox/launcher.hpp"
#include "runner/sandbox/launcher/socket_io.h"

#include "runner/sandbox/helper_programs.hpp"
#include "runner/sandbox/launcher/launch_protocol.h"
#include "runner/sys/pipe_pump.hpp"

#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>

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

// One whole report, or nullopt at end of file, on an error or when `deadline` passes first. A
// descriptor that comes with it (LISTENING's) goes to `passed`, or is closed when none is given.
std::optional<gol_launch_report> read_report(int fd, Clock::time_point deadline, UniqueFd* passed = nullptr) {
    gol_launch_report report{};
    int fds[GOL_LAUNCH_MAX_FDS];
    const auto wait_ms = std::max<long>(0, std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now()).count());
    const int got = gol_read_exact(fd, &report, sizeof report, static_cast<int>(wait_ms), fds);
    for (int i = 0; i < GOL_LAUNCH_MAX_FDS && fds[i] >= 0; ++i) {
        UniqueFd owned(fds[i]);
        if (passed && i == 0) *passed = std::move(owned);
    }
    if (got != 0) return std::nullopt;
    return report;
}

}  // namespace

std::optional<fs::path> launcher_program() { return find_helper(HelperKind::program, "gol-launcher"); }

std::optional<fs::path> warm_script(const std::string& name) { return find_helper(HelperKind::script, name); }

Launcher::Launcher(SpawnSpec start, bool own_uid) : start_(std::move(start)), own_uid_(own_uid) {}

std::unique_ptr<Launcher> Launcher::make(Sandbox* sandbox, SandboxView view, const std::optional<Identity>& who,
                                         ProcessRegistry* registry, const std::optional<GroupLimits>& group) {
    const std::optional<fs::path> program = launcher_program();
    if (!program)
        throw RunnerFault("the runner's launcher (gol-launcher, beside its bin/ or installed with it) is missing, and "
                          "no bot runs without it: rebuild or reinstall the runner");
    SpawnSpec spec;
    // In the sandbox its folder is shown at a place of its own: at its host path it could lie
    // below a bot's read-only folder (a runner in ~/.local, a bot in ~), where none can be made.
    const fs::path helpers = sandbox ? fs::path(sandboxed_program_dir) : program->parent_path();
    const std::vector<std::string> command = {(helpers / program->filename()).string(), std::to_string(launcher_fd)};
    SandboxCommand sandboxed;
    if (sandbox) {
        for (SandboxView::Mount mount : sandbox->stage("libexec", {program->parent_path()}, Sandbox::Files::host)) {
            mount.target = helpers;
            view.mounts.push_back(std::move(mount));
        }
        sandboxed = sandbox->command(view, command, who);
        spec.argv = std::move(sandboxed.argv);
        spec.tmpfs = std::move(sandboxed.tmpfs);
        spec.env = std::vector<std::string>{};
        spec.run_as = who;
    } else {
        spec.argv = command;
        spec.env = view.environment;
        spec.cwd = view.workdir;
    }
    spec.registry = registry;
    auto launcher = std::make_unique<Launcher>(std::move(spec), who.has_value());
    launcher->helpers_ = helpers;
    launcher->mount_points_ = std::move(sandboxed.mount_points);
    if (sandbox && group && sandbox->groups().available()) launcher->group_ = sandbox->groups().make(*group);
    return launcher;
}

Launcher::~Launcher() { stop(); }

Launcher::GroupCount Launcher::count() const {
    if (!group_) return {};
    return {group_->cpu(), group_->oom_kills()};
}

void Launcher::counted(const GroupCount& before, std::optional<std::chrono::microseconds>& cpu,
                       bool& out_of_memory) const {
    if (!group_) return;
    const GroupCount now = count();
    if (now.cpu && before.cpu) cpu = *now.cpu - *before.cpu;
    out_of_memory = now.oom_kills > before.oom_kills;
}

int Launcher::pid() const { return process_ ? process_->pid() : -1; }

void Launcher::stop() {
    // A held group's processes take a signal only when its quota comes round again.
    if (group_) group_->release();
    control_.reset();
    if (process_) process_->end();
    process_.reset();
}

void Launcher::launch() {
    int sv[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
        throw RunnerFault(std::string("the launcher's socket: socketpair: ") + std::strerror(errno));
    UniqueFd ours(sv[0]), theirs(sv[1]);
    SpawnSpec spec = start_;
    spec.pass_fd = CommandSpec::PassedFd{theirs.get(), launcher_fd};
    if (group_) spec.join_groups = group_->join_fds();
    process_ = std::make_unique<BackgroundProcess>(spec);
    theirs.reset();
    if (!process_->started()) {
        const std::string why = process_->start_error();
        process_.reset();
        throw RunnerFault("the bot's launcher could not be started: " + why);
    }
    control_ = std::move(ours);
    std::optional<gol_launch_report> ready = read_report(control_.get(), Clock::now() + kStartLimit);
    if (ready && ready->kind == GOL_LAUNCH_READY) return;
    control_.reset();
    const std::string why = process_->end();
    process_.reset();
    throw RunnerFault("the bot's launcher ended before it was ready (" + why + ")");
}

Clock::time_point Launcher::deliver(const gol_launch_request& request, const std::vector<int>& fds,
                                   GroupCount* before) {
    // A launcher that died between moves cannot take the request (its socket is closed) and is
    // replaced once; one that cannot take it twice is a fault of the runner's.
    for (int attempt = 0; attempt < 2; ++attempt) {
        if (!control_) launch();
        if (before) *before = count();
        const Clock::time_point at = Clock::now();
        if (gol_send_message(control_.get(), &request, sizeof request, fds.data(), static_cast<int>(fds.size())) == 0)
            return at;
        stop();
    }
    throw RunnerFault("the bot's launcher ended each time it was sent a request");
}

struct Launcher::Request {
    gol_launch_request header{};
    std::string strings;
    std::vector<int> fds;
    Pipe out = make_pipe(), err = make_pipe();
    std::optional<Pipe> in;

    // Our ends of its pipes, non-blocking, under spec's caps.
    Streams streams(const CommandSpec& spec) {
        Streams s;
        s.out = std::move(out.read);
        s.err = std::move(err.read);
        if (in) s.in = std::move(in->write);
        for (const UniqueFd* fd : {&s.in, &s.out, &s.err})
            if (*fd) set_nonblocking(fd->get());
        s.out_cap = spec.stdout_cap;
        s.err_cap = spec.stderr_cap;
        return s;
    }
};

Launcher::Request Launcher::make_request(const CommandSpec& spec, const std::string& warm_script,
                                         bool persistent) const {
    if (spec.argv.empty() || !spec.env) throw std::logic_error("Launcher::run needs argv and env");
    if (!warm_script.empty() && (spec.argv.size() < 2 || spec.pass_fd))
        throw std::logic_error("a warm move needs a file and no pass_fd");
    Request r;
    gol_launch_request& h = r.header;
    h.kind = GOL_LAUNCH_RUN;
    h.argc = static_cast<std::uint32_t>(spec.argv.size());
    h.envc = static_cast<std::uint32_t>(spec.env->size());
    h.address_space = spec.limits.address_space;
    h.cpu_seconds = spec.limits.cpu_seconds;
    h.file_size = spec.limits.file_size;
    h.open_files = spec.limits.open_files;
    h.processes = spec.limits.processes;
    if (own_uid_) h.flags |= GOL_LAUNCH_NPROC;
    if (persistent) h.flags |= GOL_LAUNCH_PERSISTENT;
    r.strings = spec.cwd.string();
    r.strings += '\0';
    if (!warm_script.empty()) {
        h.flags |= GOL_LAUNCH_WARM;
        r.strings.append((helpers_ / warm_script).string()).push_back('\0');
    }
    for (const std::string& a : spec.argv) r.strings.append(a).push_back('\0');
    for (const std::string& e : *spec.env) r.strings.append(e).push_back('\0');
    h.strings_bytes = static_cast<std::uint32_t>(r.strings.size());
    r.fds = {r.out.write.get(), r.err.write.get()};
    if (spec.stdin_data || persistent) {
        r.in = make_pipe();
        h.flags |= GOL_LAUNCH_STDIN;
        r.fds.push_back(r.in->read.get());
    }
    if (spec.pass_fd) {
        h.flags |= GOL_LAUNCH_PASS_FD;
        h.pass_as = spec.pass_fd->as;
        r.fds.push_back(spec.pass_fd->fd);
    }
    return r;
}

struct Launcher::Sent {
    Clock::time_point at;
    GroupCount before;  // as the request went, after any start of the launcher
    std::optional<gol_launch_report> started;  // STARTED or FAILED
    RunOutcome failed;  // when there is no report
};

Launcher::Sent Launcher::send(Request& request, const std::string& name) {
    // One that took the request and died before saying the move started may have started it:
    // the move is not run again, and reads as killed, as its namespace was.
    Sent sent;
    sent.at = deliver(request.header, request.fds, &sent.before);
    if (gol_send_all(control_.get(), request.strings.data(), request.strings.size()) == 0)
        sent.started = read_report(control_.get(), sent.at + kStartLimit);
    // Only the child has these ends now: their EOF is its end.
    request.out.write.reset();
    request.err.write.reset();
    if (request.in) request.in->read.reset();
    if (!sent.started) {
        stop();
        sent.failed.elapsed = std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - sent.at);
        sent.failed.kind = RunOutcome::Kind::signaled;
        sent.failed.signal = SIGKILL;
    } else if (sent.started->kind == GOL_LAUNCH_FAILED) {
        std::string why = std::strerror(sent.started->value);
        const std::string_view step = sent.started->step;
        // Only the bot's own program fails at its exec; a warm fork is the caller's to replace.
        if (step != "execve" && step != "warm")
            throw RunnerFault("the bot's launcher could not start " + name + ": " + why + " (" + std::string(step) + ")");
        if (step != "execve") why += " (" + std::string(step) + ")";
        sent.failed.spawn_error = "could not start " + name + ": " + why;
    }
    return sent;
}

bool Launcher::send_plain(std::uint32_t kind) {
    gol_launch_request request{};
    request.kind = kind;
    return control_ && gol_send_message(control_.get(), &request, sizeof request, nullptr, 0) == 0;
}

int Launcher::read_end(Clock::time_point by, std::optional<std::chrono::microseconds>& cpu) {
    std::optional<gol_launch_report> end = control_ ? read_report(control_.get(), by) : std::nullopt;
    if (end && end->kind == GOL_LAUNCH_ENDED) {
        if (end->cpu_us >= 0) cpu = std::chrono::microseconds(end->cpu_us);
        return end->value;
    }
    stop();
    return W_EXITCODE(0, SIGKILL);
}

int Launcher::kill_move(std::optional<std::chrono::microseconds>& cpu) {
    // A held launcher reads its next request at 1% of a CPU.
    if (group_) group_->release();
    // A launcher that did not take it is gone: read_end sees its end of file.
    send_plain(GOL_LAUNCH_KILL);
    return read_end(Clock::now() + kKillLimit, cpu);
}

std::optional<RunOutcome> Launcher::run(const CommandSpec& spec, const std::string& warm_script) {
    Request request = make_request(spec, warm_script, false);
    Sent sent = send(request, spec.argv[0]);
    if (sent.started && sent.started->kind == GOL_LAUNCH_FAILED && !warm_script.empty()) return std::nullopt;
    if (!sent.started || sent.started->kind != GOL_LAUNCH_STARTED) return std::move(sent.failed);

    // A warm move's process is a fork: its time starts when it was handed the request, not at a
    // start-up it did not have (the interpreter's, at the first warm move). A plain one's counts
    // from the request and includes its exec. (steady_clock is CLOCK_MONOTONIC, whatever
    // process reads it.)
    Clock::time_point start = sent.at;
    if (sent.started->started_ns > 0)
        start = std::clamp(Clock::time_point(std::chrono::nanoseconds(sent.started->started_ns)), start, Clock::now());
    // The launcher kills and reaps what the move left before it reports the end.
    std::optional<std::chrono::microseconds> cpu;
    RunOutcome outcome = run_to_end(spec, request.streams(spec), control_.get(), start, [&](bool killed) {
        return killed ? kill_move(cpu) : read_end(Clock::now() + kKillLimit, cpu);
    });
    outcome.cpu = cpu;
    counted(sent.before, outcome.cpu, outcome.out_of_memory);
    return outcome;
}

Launcher::Started Launcher::start(const CommandSpec& spec) {
    Request request = make_request(spec, "", true);
    Sent sent = send(request, spec.argv[0]);
    Started started;
    if (!sent.started || sent.started->kind != GOL_LAUNCH_STARTED) {
        // A launcher that died with the request leaves no reason but its death.
        started.error = sent.failed.kind == RunOutcome::Kind::spawn_failed ? sent.failed.spawn_error
                                                                         : "its launcher ended as it started";
        return started;
    }
    frozen_ = false;
    cpu_when_frozen_ = {};
    turn_before_ = sent.before;
    started.streams = request.streams(spec);
    return started;
}

bool Launcher::release() {
    turn_before_ = count();
    if (group_ && group_->can_hold()) group_->release();
    else if (frozen_ && !send_plain(GOL_LAUNCH_THAW)) return false;
    frozen_ = false;
    return true;
}

Launcher::Held Launcher::hold() {
    // Until its next turn every process of its namespace is held, so children it leaves
    // spinning take no more than 1% of a CPU from the opponent's move: by its control group,
    // which no process escapes; without one, stopped by its launcher's signals.
    Held held;
    if (group_ && group_->can_hold()) {
        const GroupCount now = count();
        if (now.cpu && turn_before_.cpu) held.cpu = *now.cpu - *turn_before_.cpu;
        held.out_of_memory = now.oom_kills > turn_before_.oom_kills;
        turn_before_ = now;
        if (group_->hold()) return held;
        stop();
        held.ended = W_EXITCODE(0, SIGKILL);
        return held;
    }
    std::optional<gol_launch_report> frozen;
    if (send_plain(GOL_LAUNCH_FREEZE)) frozen = read_report(control_.get(), Clock::now() + kKillLimit);
    if (frozen && frozen->kind == GOL_LAUNCH_FROZEN) {
        frozen_ = true;
        const std::chrono::microseconds total(frozen->cpu_us);
        held.cpu = total - cpu_when_frozen_;
        cpu_when_frozen_ = total;
    } else if (frozen && frozen->kind == GOL_LAUNCH_ENDED) {
        held.ended = frozen->value;  // it replied and ended
    } else {
        stop();
        held.ended = W_EXITCODE(0, SIGKILL);
    }
    return held;
}

RunOutcome Launcher::kill(std::chrono::milliseconds grace) {
    // Its end comes as the launcher's ENDED report; the KILL that follows finds it ended.
    if (control_ && grace.count() > 0) {
        pollfd p{control_.get(), POLLIN, 0};
        while (::poll(&p, 1, static_cast<int>(grace.count())) < 0 && errno == EINTR) {
        }
    }
    RunOutcome outcome;
    std::optional<std::chrono::microseconds> cpu;
    set_ended(outcome, kill_move(cpu));
    counted(turn_before_, cpu, outcome.out_of_memory);
    return outcome;
}

Launcher::Listener Launcher::listen() {
    gol_launch_request request{};
    request.kind = GOL_LAUNCH_LISTEN;
    deliver(request, {});
    Listener listener;
    const std::optional<gol_launch_report> r = read_report(control_.get(), Clock::now() + kStartLimit, &listener.fd);
    if (r && r->kind == GOL_LAUNCH_LISTENING && listener.fd) {
        listener.port = r->value;
        return listener;
    }
    if (r && r->kind == GOL_LAUNCH_FAILED)
        throw RunnerFault(std::string("the bot's launcher could not listen on 127.0.0.1: ") + std::strerror(r->value) +
                          " (" + r->step + ")");
    stop();
    throw RunnerFault("the bot's launcher ended when asked for a socket");
}

}  // namespace gol::runner
