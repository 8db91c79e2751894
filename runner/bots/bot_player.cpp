#include "runner/bots/bot_player.hpp"

#include "runner/game/protocol.hpp"
#include "runner/sys/process.hpp"
#include "runner/sys/process_tree.hpp"
#include "runner/sys/sandbox.hpp"

#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <optional>

namespace gol::runner {

namespace fs = std::filesystem;

namespace {

constexpr std::size_t kOutputPreview = 200;

std::string mib(std::uint64_t bytes) { return std::to_string(bytes >> 20) + " MiB"; }

// A process that died of one of its limits gets a forfeit that names the limit. Some limits
// have no signal of their own (address space), or runtimes catch the signal (Python ignores
// SIGXFSZ): then the runtime's own words on stderr tell.
// `tmp_bytes`: the size of the sandbox's /tmp and /dev/shm, 0 without the sandbox.
// A resource-limit forfeit in words: which limit, how it showed, and what the bot can do.
Forfeit over_limit(const std::string& limit, const std::string& how, const char* fix) {
    return Forfeit{ForfeitKind::resource_limit, "the bot went over its " + limit + " (" + how + "): " + fix};
}

std::optional<Forfeit> limit_forfeit(const RunOutcome& run, const ResourceLimits& limits, std::uint64_t tmp_bytes) {
    const std::string cpu = "CPU time limit of " + std::to_string(limits.cpu_seconds) + " s per move";
    const std::string file = "file size limit of " + mib(limits.file_size);
    const std::string memory = "memory limit of " + mib(limits.address_space) + " of address space";
    const std::string processes = "process limit of " + std::to_string(limits.processes) + " processes and threads";
    const std::string tmp = "size limit of " + mib(tmp_bytes) + " on /tmp and /dev/shm";
    if (run.kind == RunOutcome::Kind::signaled && run.signal == SIGXCPU)
        return over_limit(cpu, "SIGXCPU", "its own work took that long; compute less per move");
    if (run.kind == RunOutcome::Kind::signaled && run.signal == SIGXFSZ)
        return over_limit(file, "SIGXFSZ", "write smaller files");
    const bool failed = run.kind == RunOutcome::Kind::signaled ||
                        (run.kind == RunOutcome::Kind::exited && run.exit_status != 0);
    if (!failed) return std::nullopt;
    struct Sign {
        const char* text;
        const std::string& limit;
        std::uint64_t value;
        const char* fix;
    };
    constexpr const char* fewer = "start fewer processes and threads";
    constexpr const char* smaller = "use less memory";
    // Processes first: Java reports a thread it could not make as an OutOfMemoryError.
    for (const Sign& sign : {Sign{"Resource temporarily unavailable", processes, limits.processes, fewer},
                             Sign{"Cannot fork", processes, limits.processes, fewer},
                             Sign{"unable to create native thread", processes, limits.processes, fewer},
                             Sign{"can't start new thread", processes, limits.processes, fewer},
                             Sign{"MemoryError", memory, limits.address_space, smaller},
                             Sign{"bad_alloc", memory, limits.address_space, smaller},
                             Sign{"Cannot allocate memory", memory, limits.address_space, smaller},
                             Sign{"out of memory", memory, limits.address_space, smaller},
                             Sign{"OutOfMemoryError", memory, limits.address_space, smaller},
                             Sign{"File too large", file, limits.file_size, "write smaller files"},
                             Sign{"No space left on device", tmp, tmp_bytes,
                                  "write less there; a file to keep belongs under $GOL_SCRATCH"}})
        if (sign.value != 0 && run.err.find(sign.text) != std::string::npos)
            return over_limit(sign.limit, describe(run), sign.fix);
    return std::nullopt;
}

// The warm interpreter's script for `python3 FILE ...` (or python3.N) and `ruby FILE ...` (or
// ruby3.N), by name; empty for any other command. Options before the file (-u, -m, -r) are not
// for a warm interpreter, and such a bot runs the plain way.
std::string warm_script_name(const std::vector<std::string>& command) {
    if (command.size() < 2 || command[1].empty() || command[1][0] == '-') return "";
    const std::string program = fs::path(command[0]).filename().string();
    auto is = [&](std::string_view name) {
        if (program == name) return true;
        const std::string versioned = std::string(name) + ".";
        return program.starts_with(versioned) && program.size() > versioned.size() &&
               std::all_of(program.begin() + static_cast<long>(versioned.size()), program.end(),
                           [](char c) { return (c >= '0' && c <= '9') || c == '.'; });
    };
    if (is("python3")) return "gol-warm-python.py";
    if (is("ruby") || is("ruby3")) return "gol-warm-ruby.rb";
    return "";
}

// `detail` and the last line of the bot's stderr, when it wrote one: a crash's traceback ends
// with the line that names the error.
std::string with_last_stderr_line(std::string detail, std::string_view err) {
    if (const std::vector<std::string> last = last_lines(err, 1); !last.empty()) detail += "; its stderr ends: " + last[0];
    return detail;
}

// "the bot exited with status 1" for a process that failed, with its stderr's last line.
std::string ended_detail(const RunOutcome& run, std::string_view err) {
    return with_last_stderr_line(run.kind == RunOutcome::Kind::signaled
                                     ? "the bot was killed by signal " + std::to_string(run.signal) + " (" +
                                           ::strsignal(run.signal) + ")"
                                     : "the bot exited with status " + std::to_string(run.exit_status),
                                 err);
}

// A reply that arrived in time: the move it holds, or the forfeit it earns.
void take_reply(MoveReport& result, std::string_view text) { static_cast<Move&>(result) = parse_reply(text); }

}  // namespace

MoveLimits move_limits(int time_limit_ms, int memory_limit_mb, int cpu_limit_s) {
    MoveLimits limits;
    limits.time_limit = std::chrono::milliseconds(time_limit_ms);
    limits.resources.address_space = static_cast<std::uint64_t>(memory_limit_mb) << 20;
    limits.resources.cpu_seconds =
        static_cast<std::uint64_t>(cpu_limit_s > 0 ? cpu_limit_s : std::max(1, (time_limit_ms + 999) / 1000));
    return limits;
}

namespace {

// Where GOL_SCRATCH is inside the sandbox: outside any bot's own folder, even one directly in /tmp.
constexpr const char* kScratchInside = "/run/gol/scratch";

// The JVM's default reservations (a quarter of the machine's memory for the heap, 1 GiB of
// class space) fail under a move's address-space limit: a single-file Java bot's JVM is sized
// from it (a quarter for the heap), which works from 512 MiB up.
std::vector<std::string> jvm_options(std::uint64_t address_space) {
    if (address_space == 0) return {"-XX:+UseSerialGC"};
    const std::uint64_t mib = address_space >> 20, small = std::min<std::uint64_t>(64, mib / 16);
    return {"-XX:+UseSerialGC", "-Xmx" + std::to_string(mib / 4) + "m",
            "-XX:CompressedClassSpaceSize=" + std::to_string(small) + "m",
            "-XX:ReservedCodeCacheSize=" + std::to_string(small) + "m"};
}

TempDir make_scratch(const BotHost& host, const std::optional<Identity>& who) {
    return host.sandbox ? host.sandbox->writable_dir("gol-scratch", who) : TempDir("gol-scratch", host.area.path());
}

// Bytes a folder takes on disk (sparse files count what they use), links not followed.
std::uint64_t disk_usage(const fs::path& dir) {
    std::uint64_t bytes = 0;
    std::error_code ec;
    for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        struct stat st {};
        if (::lstat(it->path().c_str(), &st) == 0) bytes += static_cast<std::uint64_t>(st.st_blocks) * 512;
    }
    return bytes;
}

}  // namespace

BotPlayer::BotPlayer(PreparedBot bot, MoveLimits limits, const BotHost& host)
    : bot_(std::move(bot)),
      limits_(limits),
      registry_(host.registry),
      sandbox_(host.sandbox),
      identity_(sandbox_ ? sandbox_->new_identity() : std::nullopt),
      scratch_(make_scratch(host, identity_)) {
    const std::string scratch = sandbox_ ? kScratchInside : scratch_.path().string();
    // An allow-list: nothing of the host's environment (tokens, keys) reaches a bot.
    env_ = {std::string("PATH=") + bot_path, "HOME=" + scratch, "LANG=C.UTF-8", "GOL_SCRATCH=" + scratch};
    if (host.seed) env_.push_back("GOL_SEED=" + std::to_string(*host.seed));
    if (bot_.spec.protocol == Protocol::argv) long_library_ = long_argument_library();
    if (bot_.spec.protocol != Protocol::persistent) launcher_ = make_launcher();
    if (const std::string name = warm_script_name(bot_.command);
        launcher_ && host.warm && bot_.spec.warm && !name.empty())
        if (std::optional<fs::path> script = warm_script(name)) warm_script_ = script->string();
    spawn_spec_ = make_spawn_spec(false);
    if (long_library_) long_board_spec_ = make_spawn_spec(true);
}

SandboxView BotPlayer::sandbox_view(bool long_board) const {
    SandboxView view;
    view.mounts = sandbox_->stage(bot_.spec.name + " " + bot_.hash, bot_.files);
    if (long_board) {
        std::vector<SandboxView::Mount> library = sandbox_->stage("preload library", {*long_library_});
        view.mounts.insert(view.mounts.end(), library.begin(), library.end());
    }
    view.mounts.push_back({scratch_.path(), kScratchInside, true});
    view.workdir = bot_.dir;
    view.environment = env_;
    return view;
}

std::unique_ptr<Launcher> BotPlayer::make_launcher() const {
    const std::optional<fs::path> program = launcher_program();
    if (!program || (!sandbox_ && !containment_available())) return nullptr;
    SpawnSpec spec;
    const std::vector<std::string> command = {program->string(), std::to_string(launcher_fd)};
    if (sandbox_) {
        // One sandbox for the game's moves, so it shows what any of them needs: the preload
        // library too, for the moves whose board is too long for an argument.
        SandboxView view = sandbox_view(long_library_.has_value());
        // The launcher's folder: the warm interpreters' scripts are there too.
        std::vector<SandboxView::Mount> launcher = sandbox_->stage("libexec", {program->parent_path()});
        view.mounts.insert(view.mounts.end(), launcher.begin(), launcher.end());
        spec.argv = sandbox_->command(view, command, true);
        spec.env = std::vector<std::string>{};
        spec.run_as = identity_;
    } else {
        spec.argv = command;
        spec.env = env_;
        spec.cwd = bot_.dir;
    }
    spec.registry = registry_;
    return std::make_unique<Launcher>(std::move(spec), identity_.has_value());
}

SpawnSpec BotPlayer::make_spawn_spec(bool long_board) const {
    SpawnSpec spec;
    std::vector<std::string> command = bot_.command;
    if (bot_.spec.kind == SourceKind::java) {
        const std::vector<std::string> jvm = jvm_options(limits_.resources.address_space);
        command.insert(command.begin() + 1, jvm.begin(), jvm.end());
    }
    std::vector<std::string> extra_env;
    if (long_board) {
        extra_env = long_argument_environment(*long_library_, command.size());
        command.push_back(long_argument_placeholder);
    }
    if (launcher_) {
        // Unsandboxed, found in the runner's PATH as run_process would; inside, in the bot's.
        if (!sandbox_ && command[0].find('/') == std::string::npos) {
            const char* path = std::getenv("PATH");
            command[0] = find_in_path(command[0], path && *path ? path : "/usr/bin:/bin").value_or(command[0]);
        }
        spec.argv = command;
        spec.env = env_;
        spec.env->insert(spec.env->end(), extra_env.begin(), extra_env.end());
        spec.cwd = bot_.dir;
    } else if (sandbox_) {
        SandboxView view = sandbox_view(long_board);
        // Set inside, for the bot's program: preloaded into bwrap, the library would take the
        // board there.
        view.environment.insert(view.environment.end(), extra_env.begin(), extra_env.end());
        spec.argv = sandbox_->command(view, command);
        spec.env = std::vector<std::string>{};
        spec.run_as = identity_;
    } else {
        spec.argv = command;
        spec.env = env_;
        spec.env->insert(spec.env->end(), extra_env.begin(), extra_env.end());
        spec.cwd = bot_.dir;
        // The sandbox's own PID namespace ends what the bot starts; without it, one of its own.
        spec.contain = true;
    }
    spec.registry = registry_;
    spec.timeout = limits_.time_limit;
    spec.stdout_cap = limits_.stdout_cap;
    spec.stderr_cap = limits_.stderr_cap;
    spec.limits = limits_.resources;
    if (bot_.spec.protocol == Protocol::persistent) spec.limits.cpu_seconds = 0;
    return spec;
}

void BotPlayer::check_scratch(MoveReport& result) {
    const std::uint64_t used = disk_usage(scratch_.path());
    if (used <= limits_.scratch_bytes) return;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(scratch_.path(), ec)) fs::remove_all(entry.path(), ec);
    result.cells.clear();
    result.forfeit = over_limit("scratch limit of " + mib(limits_.scratch_bytes),
                                "GOL_SCRATCH held " + mib(used) + "; emptied", "keep less in $GOL_SCRATCH");
}

MoveReport BotPlayer::move(const Board& board, int seat, int tick) {
    encode_board(board, seat, tick, board_json_);
    return move(board_json_);
}

MoveReport BotPlayer::move(const std::string& board_json) {
    MoveReport result =
        bot_.spec.protocol == Protocol::persistent ? move_persistent(board_json) : move_once(board_json);
    check_scratch(result);
    return result;
}

MoveReport BotPlayer::move_persistent(const std::string& board_json) {
    MoveReport result;
    if (gave_up_) {
        result.forfeit = Forfeit{ForfeitKind::gave_up, "the bot sits out the rest of the game: it failed and was restarted " +
                                                    std::to_string(max_restarts) +
                                                    " times (its first forfeits say why)"};
        return result;
    }
    // Every failure below ends the process; the next tick starts a new one, up to max_restarts.
    auto failed = [&](ForfeitKind kind, std::string detail) {
        end_persistent();
        if (restarts_ >= max_restarts) gave_up_ = true;
        result.forfeit = Forfeit{kind, std::move(detail)};
        return result;
    };
    if (!line_) {
        ++restarts_;
        line_ = std::make_unique<LineProcess>(spawn_spec_);
        cpu_when_frozen_ = {};
        if (!line_->started()) return failed(ForfeitKind::could_not_start, line_->start_error());
    }
    signal_each(frozen_, SIGCONT);
    frozen_.clear();
    LineProcess::Reply reply = line_->exchange(board_json, limits_.time_limit);
    result.elapsed = reply.elapsed;
    result.out = reply.line.substr(0, kOutputPreview);
    result.err = std::move(reply.err);
    using Kind = LineProcess::Reply::Kind;
    switch (reply.kind) {
        case Kind::timed_out:
            // A reply line left in the bot's stdout buffer looks the same from here as slow work.
            return failed(ForfeitKind::timeout, "no reply line within the limit of " +
                                                    std::to_string(limits_.time_limit.count()) +
                                                    " ms per move: the bot was still working, or its reply sat in its "
                                                    "output buffer (flush stdout after each reply line)");
        case Kind::stdout_overflow:
            return failed(ForfeitKind::output_cap, "the bot printed more than " + std::to_string(limits_.stdout_cap) +
                                                       " bytes without a newline (a reply is one line)");
        case Kind::exited:
            line_.reset();  // reaped with its group: its pid may name another process now
            return failed(reply.signaled ? ForfeitKind::signal : ForfeitKind::exit_status,
                          with_last_stderr_line("the bot's process ended (" + reply.how + ") before replying",
                                                result.err));
        case Kind::extra_output:
            return failed(ForfeitKind::protocol, "wrote more than one line for the previous tick");
        case Kind::line: break;
    }
    // Until its next board the bot's every process is stopped, so children it leaves spinning
    // take no CPU from the opponent's move (all of a game's bots share one CPU).
    StoppedTree stopped = stop_tree(line_->pid(), orphan_adopter());
    frozen_ = std::move(stopped.pids);
    // RLIMIT_CPU counts a process's whole life, which for a persistent bot is the game, so the
    // runner measures each move instead: the tree's CPU time now, less when it was last stopped
    // (at the start, nothing). Time used while it should have been stopped counts too.
    const std::chrono::milliseconds used = stopped.cpu - cpu_when_frozen_;
    cpu_when_frozen_ = stopped.cpu;
    const auto limit = std::chrono::seconds(limits_.resources.cpu_seconds);
    if (limits_.resources.cpu_seconds != 0 && used > limit) {
        char seconds[32];
        std::snprintf(seconds, sizeof seconds, "%.2f", std::chrono::duration<double>(used).count());
        return failed(ForfeitKind::resource_limit,
                      over_limit("CPU time limit of " + std::to_string(limit.count()) + " s per move",
                                 std::string("used ") + seconds + " s",
                                 "the time went into the bot's own work and the processes it left running; "
                                 "compute less per move")
                          .detail);
    }
    result.cpu = used;
    take_reply(result, reply.line);
    return result;
}

void BotPlayer::end_persistent() {
    // Stopped first, so that none forks or is orphaned out of reach while the others die.
    if (line_ && line_->started()) signal_each(stop_tree(line_->pid(), orphan_adopter()).pids, SIGKILL);
    frozen_.clear();
    line_.reset();
}

int BotPlayer::orphan_adopter() const { return sandbox_ ? 0 : static_cast<int>(::getpid()); }

BotPlayer::~BotPlayer() { end_persistent(); }

std::optional<RunOutcome> BotPlayer::move_warm(const std::string& board_json) {
    SpawnSpec spec = spawn_spec_;
    // No exec, so no limit on an argument's length: a long board is an argument like any.
    if (bot_.spec.protocol == Protocol::stdin) spec.stdin_data = board_json + "\n";
    else spec.argv.push_back(board_json);
    std::optional<RunOutcome> run = launcher_->run_warm(spec, warm_script_);
    // A launcher that cannot keep a warm interpreter (none in the bot's PATH, no /proc of its own)
    // will not later in the game either.
    if (!run) warm_script_.clear();
    return run;
}

namespace {

Forfeit board_too_large(std::size_t bytes, std::string_view why) {
    return Forfeit{ForfeitKind::board_too_large, "the board is " + std::to_string(bytes) +
                                                     " bytes of JSON, over Linux's 128 KiB limit for one argument, and " +
                                                     std::string(why)};
}

}  // namespace

std::optional<SpawnSpec> BotPlayer::plain_spec(const std::string& board_json, std::optional<LongArgument>& long_board,
                                               MoveReport& result) const {
    SpawnSpec spec = spawn_spec_;
    if (bot_.spec.protocol == Protocol::stdin) {
        spec.stdin_data = board_json + "\n";
    } else if (!too_long_for_argv(board_json)) {
        spec.argv.push_back(board_json);
    } else if (!long_board_spec_) {
        result.forfeit = board_too_large(
            board_json.size(), "the runner's preload library that delivers it is missing (libgol_long_argv.so, in "
                               "lib/gol-runner/ or lib/ beside the runner's bin/): rebuild or reinstall the runner, "
                               "or use the stdin protocol");
        return std::nullopt;
    } else {
        spec = *long_board_spec_;
        long_board.emplace(board_json);
        spec.pass_fd = SpawnSpec::PassedFd{long_board->fd(), long_argument_fd};
    }
    return spec;
}

MoveReport BotPlayer::move_once(const std::string& board_json) {
    MoveReport result;
    std::optional<LongArgument> long_board;
    std::optional<RunOutcome> ran;
    if (warm()) ran = move_warm(board_json);
    if (!ran) {
        std::optional<SpawnSpec> spec = plain_spec(board_json, long_board, result);
        if (!spec) return result;
        ran = launcher_ ? launcher_->run(*spec) : run_process(*spec);
    }
    RunOutcome& run = *ran;
    if (sandbox_) as_seen_inside(run);
    result.elapsed = run.elapsed;
    result.cpu = run.cpu;
    result.out = run.out.substr(0, kOutputPreview);
    if (long_board && run.kind != RunOutcome::Kind::spawn_failed && !long_board->taken()) {
        result.forfeit = board_too_large(
            board_json.size(), "the bot's program did not take it from the runner's preload library (LD_PRELOAD has "
                               "no effect on a statically linked executable): link the bot dynamically, or use the "
                               "stdin protocol (docs/protocol.md)");
        result.err = std::move(run.err);
        return result;
    }
    if (auto limit = limit_forfeit(run, spawn_spec_.limits, sandbox_ ? Sandbox::tmp_bytes : 0)) {
        result.forfeit = std::move(*limit);
        result.err = std::move(run.err);
        return result;
    }
    result.err = std::move(run.err);
    switch (run.kind) {
        case RunOutcome::Kind::timed_out:
            result.forfeit = Forfeit{
                ForfeitKind::timeout,
                "no reply within the limit of " + std::to_string(limits_.time_limit.count()) + " ms per move: " +
                    (warm() ? "the time went into the bot's own work (its interpreter was started before the move)"
                            : "the time went into the bot's run, starting it and its own work")};
            return result;
        case RunOutcome::Kind::signaled:
            result.forfeit = Forfeit{ForfeitKind::signal, ended_detail(run, result.err)};
            return result;
        case RunOutcome::Kind::stdout_overflow:
            result.forfeit = Forfeit{ForfeitKind::output_cap, "the bot printed more than " +
                                                                  std::to_string(limits_.stdout_cap) +
                                                                  " bytes on stdout (a reply is at most " +
                                                                  std::to_string(max_cells_per_move) + " pairs)"};
            return result;
        case RunOutcome::Kind::spawn_failed:
            if (run.spawn_error.find(std::strerror(E2BIG)) != std::string::npos)
                result.forfeit = Forfeit{ForfeitKind::board_too_large, run.spawn_error};
            else
                result.forfeit = Forfeit{ForfeitKind::could_not_start, run.spawn_error};
            return result;
        case RunOutcome::Kind::exited:
            if (run.exit_status != 0) {
                result.forfeit = Forfeit{ForfeitKind::exit_status, ended_detail(run, result.err)};
                return result;
            }
            break;
    }
    take_reply(result, run.out);
    return result;
}

}  // namespace gol::runner
