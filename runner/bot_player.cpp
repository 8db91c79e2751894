#include "runner/bot_player.hpp"

#include "runner/process.hpp"
#include "runner/sandbox.hpp"

#include <signal.h>

#include <algorithm>
#include <cerrno>
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
std::optional<Forfeit> limit_forfeit(const RunOutcome& run, const ResourceLimits& limits) {
    const std::string cpu = "CPU time limit of " + std::to_string(limits.cpu_seconds) + " s per move";
    const std::string file = "file size limit of " + mib(limits.file_size);
    const std::string memory = "memory limit of " + mib(limits.address_space) + " of address space";
    if (run.kind == RunOutcome::Kind::signaled && run.signal == SIGXCPU)
        return Forfeit{ForfeitKind::resource_limit, cpu + " (SIGXCPU)"};
    if (run.kind == RunOutcome::Kind::signaled && run.signal == SIGXFSZ)
        return Forfeit{ForfeitKind::resource_limit, file + " (SIGXFSZ)"};
    const bool failed = run.kind == RunOutcome::Kind::signaled ||
                        (run.kind == RunOutcome::Kind::exited && run.exit_status != 0);
    if (!failed) return std::nullopt;
    struct Sign {
        const char* text;
        const std::string& limit;
        std::uint64_t value;
    };
    for (const Sign& sign : {Sign{"MemoryError", memory, limits.address_space},
                             Sign{"bad_alloc", memory, limits.address_space},
                             Sign{"Cannot allocate memory", memory, limits.address_space},
                             Sign{"out of memory", memory, limits.address_space},
                             Sign{"OutOfMemoryError", memory, limits.address_space},
                             Sign{"File too large", file, limits.file_size}})
        if (sign.value != 0 && run.err.find(sign.text) != std::string::npos)
            return Forfeit{ForfeitKind::resource_limit, sign.limit + " (" + describe(run) + ")"};
    return std::nullopt;
}

// A reply that arrived in time: the move it holds, or the forfeit it earns.
void take_reply(MoveResult& result, std::string_view text) {
    ParsedReply parsed = parse_reply(text);
    result.ok = parsed.ok;
    if (parsed.ok) result.cells = std::move(parsed.cells);
    else result.forfeit = std::move(parsed.forfeit);
}

}  // namespace

MoveLimits move_limits(int time_limit_ms, int memory_limit_mb, int cpu_limit_s) {
    MoveLimits limits;
    limits.time_limit = std::chrono::milliseconds(time_limit_ms);
    limits.resources.address_space = static_cast<std::uint64_t>(memory_limit_mb) << 20;
    limits.resources.cpu_seconds =
        static_cast<std::uint64_t>(cpu_limit_s > 0 ? cpu_limit_s : std::max(1, (time_limit_ms + 999) / 1000));
    return limits;
}

BotPlayer::BotPlayer(PreparedBot bot, MoveLimits limits, ProcessRegistry* registry, std::optional<std::string> sandbox)
    : bot_(std::move(bot)),
      limits_(limits),
      registry_(registry),
      sandbox_(std::move(sandbox)),
      scratch_("gol-scratch"),
      // An allow-list: nothing of the host's environment (tokens, keys) reaches a bot.
      env_{std::string("PATH=") + bot_path, "HOME=" + scratch_.path().string(), "LANG=C.UTF-8",
           "GOL_SCRATCH=" + scratch_.path().string()},
      spawn_spec_(make_spawn_spec(false)) {
    if (bot_.spec.protocol != Protocol::argv) return;
    long_library_ = long_argument_library();
    if (long_library_) long_board_spec_ = make_spawn_spec(true);
}

SpawnSpec BotPlayer::make_spawn_spec(bool long_board) const {
    SpawnSpec spec;
    std::vector<std::string> command = bot_.command;
    std::vector<std::string> extra_env;
    std::vector<fs::path> extra_files;
    if (!bot_.build_dir.empty()) extra_files.push_back(bot_.build_dir);
    if (long_board) {
        extra_env = long_argument_environment(*long_library_, command.size());
        extra_files.push_back(*long_library_);
        command.push_back(long_argument_placeholder);
    }
    spec.env = env_;
    if (sandbox_) {
        const fs::path own = bot_.spec.kind == SourceKind::manifest ? bot_.spec.dir : fs::absolute(bot_.spec.path);
        // Set inside the sandbox: preloaded into bwrap, the library would take the board there.
        spec.argv = sandboxed(*sandbox_, command, bot_.spec.dir, own, scratch_.path(), extra_files, extra_env);
    } else {
        spec.argv = command;
        spec.env->insert(spec.env->end(), extra_env.begin(), extra_env.end());
        // The sandbox's own PID namespace ends what the bot starts; without it, one of its own.
        spec.contain = true;
    }
    spec.cwd = bot_.spec.dir;
    spec.registry = registry_;
    spec.timeout = limits_.time_limit;
    spec.stdout_cap = limits_.stdout_cap;
    spec.stderr_cap = limits_.stderr_cap;
    spec.limits = limits_.resources;
    if (bot_.spec.protocol == Protocol::persistent) spec.limits.cpu_seconds = 0;
    return spec;
}

MoveResult BotPlayer::move(const std::string& board_json) {
    return bot_.spec.protocol == Protocol::persistent ? move_persistent(board_json) : move_once(board_json);
}

MoveResult BotPlayer::move_persistent(const std::string& board_json) {
    MoveResult result;
    if (gave_up_) {
        result.forfeit = {ForfeitKind::gave_up, "failed after " + std::to_string(max_restarts) +
                                                    " restarts this game; sits out the rest of it"};
        return result;
    }
    // Every failure below ends the process; the next tick starts a new one, up to max_restarts.
    auto failed = [&](ForfeitKind kind, std::string detail) {
        line_.reset();
        if (restarts_ >= max_restarts) gave_up_ = true;
        result.forfeit = {kind, std::move(detail)};
        return result;
    };
    if (!line_) {
        ++restarts_;
        line_ = std::make_unique<LineProcess>(spawn_spec_);
        if (!line_->started()) return failed(ForfeitKind::could_not_start, line_->start_error());
    }
    LineProcess::Reply reply = line_->exchange(board_json, limits_.time_limit);
    result.elapsed = reply.elapsed;
    result.out = reply.line.substr(0, kOutputPreview);
    result.err = std::move(reply.err);
    using Kind = LineProcess::Reply::Kind;
    switch (reply.kind) {
        case Kind::timed_out:
            return failed(ForfeitKind::timeout,
                          "no reply line within " + std::to_string(limits_.time_limit.count()) + " ms");
        case Kind::stdout_overflow:
            return failed(ForfeitKind::output_cap,
                          "more than " + std::to_string(limits_.stdout_cap) + " bytes without a newline");
        case Kind::exited:
            return failed(reply.signaled ? ForfeitKind::signal : ForfeitKind::exit_status,
                          "the process ended (" + reply.how + ") before replying");
        case Kind::extra_output:
            return failed(ForfeitKind::protocol, "wrote more than one line for the previous tick");
        case Kind::line: break;
    }
    take_reply(result, reply.line);
    return result;
}

MoveResult BotPlayer::move_once(const std::string& board_json) {
    MoveResult result;
    SpawnSpec spec = spawn_spec_;
    std::optional<LongArgument> long_board;
    auto too_large = [&](std::string_view why) {
        result.forfeit = {ForfeitKind::board_too_large, "the board is " + std::to_string(board_json.size()) +
                                                            " bytes of JSON, over Linux's 128 KiB limit for one "
                                                            "argument, and " + std::string(why)};
    };
    if (bot_.spec.protocol == Protocol::stdin) {
        spec.stdin_data = board_json + "\n";
    } else if (!too_long_for_argv(board_json)) {
        spec.argv.push_back(board_json);
    } else if (!long_board_spec_) {
        too_large("the runner's preload library that delivers it is missing (lib/libgol_long_argv.so beside the "
                  "runner's bin/): rebuild the runner (scripts/setup), or use the stdin protocol");
        return result;
    } else {
        spec = *long_board_spec_;
        long_board.emplace(board_json);
        spec.pass_fd = SpawnSpec::PassedFd{long_board->fd(), long_argument_fd};
    }

    RunOutcome run = run_process(spec);
    result.elapsed = run.elapsed;
    result.out = run.out.substr(0, kOutputPreview);
    if (long_board && run.kind != RunOutcome::Kind::spawn_failed && !long_board->taken()) {
        too_large("the bot's program did not take it from the runner's preload library (LD_PRELOAD has no effect "
                  "on a statically linked executable): link the bot dynamically, or use the stdin protocol "
                  "(docs/protocol.md)");
        result.err = std::move(run.err);
        return result;
    }
    if (auto limit = limit_forfeit(run, spec.limits)) {
        result.forfeit = std::move(*limit);
        result.err = std::move(run.err);
        return result;
    }
    result.err = std::move(run.err);
    switch (run.kind) {
        case RunOutcome::Kind::timed_out:
            result.forfeit = {ForfeitKind::timeout,
                              "no reply within " + std::to_string(limits_.time_limit.count()) + " ms"};
            return result;
        case RunOutcome::Kind::signaled: result.forfeit = {ForfeitKind::signal, describe(run)}; return result;
        case RunOutcome::Kind::stdout_overflow:
            result.forfeit = {ForfeitKind::output_cap,
                              "more than " + std::to_string(limits_.stdout_cap) + " bytes on stdout"};
            return result;
        case RunOutcome::Kind::spawn_failed:
            if (run.spawn_error.find(std::strerror(E2BIG)) != std::string::npos)
                result.forfeit = {ForfeitKind::board_too_large, run.spawn_error};
            else
                result.forfeit = {ForfeitKind::could_not_start, run.spawn_error};
            return result;
        case RunOutcome::Kind::exited:
            if (run.exit_status != 0) {
                result.forfeit = {ForfeitKind::exit_status, describe(run)};
                return result;
            }
            break;
    }
    take_reply(result, run.out);
    return result;
}

}  // namespace gol::runner
