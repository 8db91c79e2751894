#include "runner/bots/bot_player.hpp"

#include "runner/bots/move_forfeit.hpp"
#include "runner/game/protocol.hpp"
#include "runner/sys/cpu_pin.hpp"
#include "runner/sys/helper_programs.hpp"
#include "runner/sys/process.hpp"
#include "runner/sys/sandbox.hpp"

#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <optional>

namespace gol::runner {

namespace fs = std::filesystem;

namespace {

constexpr std::size_t kOutputPreview = 200;

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

// Whole seconds, rounded up: what RLIMIT_CPU takes.
std::uint64_t seconds_up(std::chrono::milliseconds ms) { return static_cast<std::uint64_t>((ms.count() + 999) / 1000); }

// A reply that arrived in time: the move it holds, or the forfeit it earns.
void take_reply(MoveReport& result, std::string_view text) { static_cast<Move&>(result) = parse_reply(text); }

}  // namespace

MoveLimits move_limits(int time_limit_ms, int memory_limit_mb, int cpu_limit_s, int startup_limit_ms, bool cpu_time) {
    MoveLimits limits;
    limits.startup_limit = std::chrono::milliseconds(startup_limit_ms);
    limits.cpu_time = cpu_time;
    limits.time_limit = std::chrono::milliseconds(time_limit_ms);
    limits.resources.address_space = static_cast<std::uint64_t>(memory_limit_mb) << 20;
    limits.resources.cpu_seconds =
        static_cast<std::uint64_t>(cpu_limit_s > 0 ? cpu_limit_s : std::max(1, (time_limit_ms + 999) / 1000));
    return limits;
}

namespace {

// Where GOL_SCRATCH is inside the sandbox: outside any bot's own folder, even one directly in /tmp.
constexpr const char* kScratchInside = "/run/gol/scratch";

// A `java` command whose heap the bot's own options do not size (a single-file Java bot's, or
// a manifest's `"run": ["java", "Bot"]`).
bool runs_java_unsized(const std::vector<std::string>& command) {
    if (command.empty() || fs::path(command[0]).filename() != "java") return false;
    return std::none_of(command.begin() + 1, command.end(), [](const std::string& a) {
        return a.starts_with("-Xmx") || a.starts_with("-XX:MaxRAM") || a.starts_with("-XX:MaxHeapSize");
    });
}

// The JVM's default reservations (a quarter of the machine's memory for the heap, 1 GiB of
// class space) fail under a move's address-space limit: every `java` run is sized from it (a
// quarter for the heap), which works from 512 MiB up, unless the bot sizes its heap itself.
std::vector<std::string> jvm_options(std::uint64_t address_space) {
    if (address_space == 0) return {"-XX:+UseSerialGC"};
    const std::uint64_t mib = address_space >> 20, small = std::min<std::uint64_t>(64, mib / 16);
    return {"-XX:+UseSerialGC", "-Xmx" + std::to_string(mib / 4) + "m",
            "-XX:CompressedClassSpaceSize=" + std::to_string(small) + "m",
            "-XX:ReservedCodeCacheSize=" + std::to_string(small) + "m"};
}

// Without the sandbox, a folder of the work area; inside it, a filesystem of its own there
// (sandbox_view).
std::optional<TempDir> make_scratch(const BotHost& host) {
    if (host.sandbox) return std::nullopt;
    return TempDir("gol-scratch", host.area.path());
}

// Besides the bot's own limit: bubblewrap, the launcher and a warm interpreter.
constexpr std::uint64_t kSandboxProcesses = 4;

}  // namespace

BotPlayer::BotPlayer(PreparedBot bot, MoveLimits limits, const BotHost& host)
    : bot_(std::move(bot)),
      limits_(limits),
      registry_(host.registry),
      sandbox_(host.sandbox),
      identity_(sandbox_ ? sandbox_->new_identity(staging_key(bot_)) : std::nullopt),
      scratch_(make_scratch(host)),
      interpreters_(host.interpreters) {
    const std::string scratch = sandbox_ ? kScratchInside : scratch_->path().string();
    // An allow-list: nothing of the host's environment (tokens, keys) reaches a bot.
    env_ = {"PATH=" + bots_path(host.interpreters), "HOME=" + scratch, "LANG=C.UTF-8", "GOL_SCRATCH=" + scratch};
    if (host.seed) env_.push_back("GOL_SEED=" + std::to_string(*host.seed));
    if (bot_.spec.protocol == Protocol::argv) long_library_ = long_argument_library();
    launcher_ = make_launcher();
    if (const std::string name = warm_script_name(bot_.command);
        bot_.spec.protocol != Protocol::persistent && bot_.spec.protocol != Protocol::tlv && host.warm &&
        bot_.spec.warm && !name.empty())
        if (warm_script(name)) warm_script_ = name;
    spawn_spec_ = make_spawn_spec(false);
    if (long_library_) long_board_spec_ = make_spawn_spec(true);
}

SandboxView BotPlayer::sandbox_view(bool long_board) const {
    SandboxView view;
    view.mounts = sandbox_->stage(staging_key(bot_), bot_.files);
    if (long_board)
        for (SandboxView::Mount mount : sandbox_->stage("preload library", {*long_library_}, Sandbox::Files::host)) {
            mount.target = sandboxed_library_dir;  // as the launcher's folder (Launcher::make)
            view.mounts.push_back(std::move(mount));
        }
    view.tmpfs.push_back({kScratchInside, limits_.scratch_bytes, Sandbox::tmp_files});
    // Copies, made once per run: the bot's user may not reach the originals (a root's pyenv).
    for (const fs::path& dir : interpreters_) {
        std::vector<SandboxView::Mount> copy =
            sandbox_->stage("interpreter " + dir.string(), {dir}, Sandbox::Files::host);
        view.mounts.insert(view.mounts.end(), copy.begin(), copy.end());
    }
    view.workdir = bot_.dir;
    view.environment = env_;
    return view;
}

std::unique_ptr<Launcher> BotPlayer::make_launcher() const {
    // One sandbox for the game's moves, so it shows what any of them needs: the preload library
    // too, for the moves whose board is too long for an argument.
    if (!sandbox_) return Launcher::make(nullptr, SandboxView{{}, bot_.dir, env_, {}}, identity_, registry_);
    // One CPU's time at most, on the CPUs of the game's thread: a bot cannot take more than
    // its share of a -j league, however many processes it starts.
    const ResourceLimits& r = limits_.resources;
    const GroupLimits group{r.address_space, r.processes ? r.processes + kSandboxProcesses : 0, 100, allowed_cpus()};
    return Launcher::make(sandbox_, sandbox_view(long_library_.has_value()), identity_, registry_, group);
}

CommandSpec BotPlayer::make_spawn_spec(bool long_board) const {
    CommandSpec spec;
    std::vector<std::string> command = bot_.command;
    if (runs_java_unsized(command)) {
        const std::vector<std::string> jvm = jvm_options(limits_.resources.address_space);
        command.insert(command.begin() + 1, jvm.begin(), jvm.end());
    }
    std::vector<std::string> extra_env;
    if (long_board) {
        const fs::path library =
            sandbox_ ? fs::path(sandboxed_library_dir) / long_library_->filename() : *long_library_;
        extra_env = long_argument_environment(library, command.size());
        command.push_back(long_argument_placeholder);
    }
    spec.argv = command;
    spec.env = env_;
    spec.env->insert(spec.env->end(), extra_env.begin(), extra_env.end());
    spec.cwd = bot_.dir;
    spec.timeout = limits_.time_limit;
    spec.stdout_cap = limits_.stdout_cap;
    spec.stderr_cap = limits_.stderr_cap;
    spec.limits = limits_.resources;
    // A process for the game: its CPU time is counted per move by its launcher instead.
    if (bot_.spec.protocol == Protocol::persistent || bot_.spec.protocol == Protocol::tlv) spec.limits.cpu_seconds = 0;
    return spec;
}

MoveReport BotPlayer::move(const Board& board, int seat, int tick) try {
    if (bot_.spec.protocol == Protocol::tlv) return move_tlv(board, seat);
    encode_board(board, seat, tick, board_json_);
    return move(board_json_);
} catch (const RunnerFault& e) {
    throw RunnerFault(bot_.spec.name + "'s move at tick " + std::to_string(tick) + ": " + e.what());
}

MoveReport BotPlayer::move(const std::string& board_json) {
    if (bot_.spec.protocol == Protocol::tlv) throw std::logic_error("BotPlayer::move: a tlv bot is told no board");
    return bot_.spec.protocol == Protocol::persistent ? move_persistent(board_json) : move_once(board_json);
}

MoveReport BotPlayer::move_persistent(const std::string& board_json) {
    MoveReport result;
    if (gave_up_) {
        result.forfeit = Forfeit{ForfeitKind::gave_up, "the bot sits out the rest of the game: it failed and was restarted " +
                                                    std::to_string(max_restarts) +
                                                    " times (its first forfeits say why)"};
        return result;
    }
    MoveOutcome outcome;
    outcome.kind = MoveOutcome::Kind::could_not_start;
    if (!launcher_->persistent_running()) {
        ++restarts_;
        outcome.start_error = launcher_->start_persistent(spawn_spec_);
        fresh_start_ = true;
    }
    const MoveTime time = move_time(fresh_start_);
    fresh_start_ = false;
    result.startup = time.startup;
    Launcher::LineReply reply;
    if (outcome.start_error.empty()) {
        reply = launcher_->exchange(board_json, wall_limit(time.limit));
        result.elapsed = reply.elapsed;
        result.out = reply.line.substr(0, kOutputPreview);
        result.err = std::move(reply.err);
        outcome = move_outcome(reply);
        outcome.err = result.err;
    }
    if (std::optional<Forfeit> forfeit = move_forfeit(outcome, forfeit_rules(time))) {
        // Every forfeit ends the process (a reply over the CPU limit: here); the next tick starts
        // a new one, up to max_restarts.
        end_persistent();
        if (restarts_ >= max_restarts) gave_up_ = true;
        result.forfeit = std::move(forfeit);
        return result;
    }
    result.cpu = reply.cpu;
    take_reply(result, reply.line);
    return result;
}

void BotPlayer::begin(int seat, std::string_view opponent) {
    if (bot_.spec.protocol != Protocol::tlv) return;
    tlv_ = std::make_unique<TlvBot>(*launcher_);
    tlv_->begin(seat, std::string(opponent));
}

void BotPlayer::end(const GameResult& result) {
    if (tlv_) tlv_->bye(result);
    tlv_.reset();
}

MoveReport BotPlayer::move_tlv(const Board& board, int seat) {
    MoveReport result;
    // Moves outside a game (check) come without begin(): the bot plays "check", told no board.
    if (!tlv_) tlv_ = std::make_unique<TlvBot>(*launcher_);
    if (!tlv_->began()) tlv_->begin(seat, "check");
    const MoveTime time = move_time(!tlv_->started());
    result.startup = time.startup;
    if (!tlv_->started()) {
        const auto start = std::chrono::steady_clock::now();
        tlv_->start(spawn_spec_, board.width(), board.height(), wall_limit(time.limit));
        if (!tlv_->lost())
            result.err = "the bot identified itself as \"" + tlv_->identification() + "\"\n";
        // Its start and its I count against its first move's time.
        result.elapsed =
            std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start);
    }
    TlvBot::Turn turn;
    if (!tlv_->lost())
        turn = tlv_->turn(wall_limit(time.limit) - std::chrono::duration_cast<std::chrono::milliseconds>(result.elapsed));
    result.elapsed += turn.elapsed;
    result.err += turn.paused.err;
    MoveOutcome outcome;
    outcome.kind = turn.timed_out ? MoveOutcome::Kind::timed_out : MoveOutcome::Kind::replied;
    outcome.cpu = turn.paused.cpu;
    outcome.out_of_memory = turn.paused.out_of_memory;
    outcome.elapsed = result.elapsed;
    outcome.err = result.err;
    std::optional<Forfeit> forfeit;
    if (tlv_->lost() && !turn.timed_out) forfeit = Forfeit{ForfeitKind::disconnected, *tlv_->lost()};
    else forfeit = move_forfeit(outcome, forfeit_rules(time));
    if (forfeit) {
        // 2014's rule: a bot that breaks the protocol or its limits is disconnected and loses.
        forfeit->kind = ForfeitKind::disconnected;
        if (!tlv_->lost()) tlv_->lose(forfeit->detail);
        result.forfeit = std::move(forfeit);
        return result;
    }
    result.cpu = turn.paused.cpu;
    result.cells = std::move(turn.cells);
    return result;
}

void BotPlayer::end_persistent() { launcher_->end_persistent(); }

ForfeitRules BotPlayer::forfeit_rules(const MoveTime& time) const {
    ForfeitRules rules;
    rules.run = bot_.spec.protocol == Protocol::tlv          ? ForfeitRules::Run::tlv
                : bot_.spec.protocol == Protocol::persistent ? ForfeitRules::Run::persistent
                : warm()                                  ? ForfeitRules::Run::warm
                                                          : ForfeitRules::Run::cold;
    rules.time_limit = time.limit;
    rules.startup = time.startup;
    rules.cpu_time = limits_.cpu_time;
    rules.wall_limit = wall_limit(time.limit);
    rules.stdout_cap = limits_.stdout_cap;
    rules.limits = limits_.resources;
    add_startup_cpu(rules.limits, time);
    rules.tmp_bytes = sandbox_ ? Sandbox::tmp_bytes : 0;
    if (sandbox_ && sandbox_->groups().holds("memory")) rules.group_memory = limits_.resources.address_space;
    return rules;
}

// The launcher's end ends the bot's namespace, a persistent bot's processes with it.
BotPlayer::~BotPlayer() = default;

BotPlayer::MoveTime BotPlayer::move_time(bool first) const {
    const bool startup = first && limits_.startup_limit.count() > 0;
    return {limits_.time_limit + (startup ? limits_.startup_limit : std::chrono::milliseconds(0)), startup};
}

std::chrono::milliseconds BotPlayer::wall_limit(std::chrono::milliseconds time_limit) const {
    return limits_.cpu_time ? time_limit * MoveLimits::cpu_time_backstop : time_limit;
}

void BotPlayer::add_startup_cpu(ResourceLimits& limits, const MoveTime& time) const {
    if (limits.cpu_seconds != 0 && time.startup) limits.cpu_seconds += seconds_up(limits_.startup_limit);
}

void BotPlayer::with_limit(CommandSpec& spec, const MoveTime& time) const {
    spec.timeout = wall_limit(time.limit);
    add_startup_cpu(spec.limits, time);
}

std::optional<RunOutcome> BotPlayer::move_warm(const std::string& board_json, const MoveTime& time) {
    CommandSpec spec = spawn_spec_;
    with_limit(spec, time);
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

std::optional<CommandSpec> BotPlayer::plain_spec(const std::string& board_json, std::optional<LongArgument>& long_board,
                                               MoveReport& result) const {
    CommandSpec spec = spawn_spec_;
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
        spec.pass_fd = CommandSpec::PassedFd{long_board->fd(), long_argument_fd};
    }
    return spec;
}

MoveReport BotPlayer::move_once(const std::string& board_json) {
    MoveReport result;
    std::optional<LongArgument> long_board;
    std::optional<RunOutcome> ran;
    const MoveTime time = move_time(!moved_);
    moved_ = true;
    result.startup = time.startup;
    if (warm()) ran = move_warm(board_json, time);
    if (!ran) {
        std::optional<CommandSpec> spec = plain_spec(board_json, long_board, result);
        if (!spec) return result;
        with_limit(*spec, time);
        ran = launcher_->run(*spec);
    }
    RunOutcome& run = *ran;
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
    result.err = std::move(run.err);
    MoveOutcome outcome = move_outcome(run);
    outcome.err = result.err;
    if (std::optional<Forfeit> forfeit = move_forfeit(outcome, forfeit_rules(time))) {
        result.forfeit = std::move(forfeit);
        return result;
    }
    take_reply(result, run.out);
    return result;
}

}  // namespace gol::runner
