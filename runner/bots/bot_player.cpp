#include "runner/bots/bot_player.hpp"

#include "runner/game/protocol.hpp"
#include "runner/sys/cpu_pin.hpp"
#include "runner/sandbox/helper_programs.hpp"
#include "runner/sandbox/long_argument.hpp"
#include "runner/sandbox/sandbox.hpp"

#include <algorithm>
#include <iterator>
#include <optional>
#include <regex>
#include <stdexcept>

namespace gol::runner {

namespace fs = std::filesystem;

namespace {

// The warm interpreter's script for `python3 FILE ...` (or python3.N) and `ruby FILE ...` (or
// ruby3.N), by name; empty for any other command. Options before the file (-u, -m, -r) are not
// for a warm interpreter, and such a bot runs the plain way.
std::string warm_script_name(const std::vector<std::string>& command) {
    if (command.size() < 2 || command[1].empty() || command[1][0] == '-') return "";
    const std::string program = fs::path(command[0]).filename().string();
    if (std::regex_match(program, std::regex(R"(python3(\.[0-9.]+)?)"))) return "gol-warm-python.py";
    if (std::regex_match(program, std::regex(R"(ruby3?(\.[0-9.]+)?)"))) return "gol-warm-ruby.rb";
    return "";
}

// Where GOL_SCRATCH is inside the sandbox: outside any bot's own folder, even one directly in /tmp.
constexpr const char* kScratchInside = "/run/gol/scratch";

// The JVM's default reservations (a quarter of the machine's memory for the heap, 1 GiB of
// class space) fail under a move's address-space limit: a `java` command (a single-file Java
// bot's, or a manifest's `"run": ["java", "Bot"]`) is sized from it (a quarter for the heap),
// which works from 512 MiB up, unless the bot's own options size its heap. None for the others.
std::vector<std::string> jvm_options(const std::vector<std::string>& command, std::uint64_t address_space) {
    if (command.empty() || fs::path(command[0]).filename() != "java" ||
        std::any_of(command.begin() + 1, command.end(), [](const std::string& a) {
            return a.starts_with("-Xmx") || a.starts_with("-XX:MaxRAM") || a.starts_with("-XX:MaxHeapSize");
        }))
        return {};
    if (address_space == 0) return {"-XX:+UseSerialGC"};
    const std::uint64_t mib = address_space >> 20, small = std::min<std::uint64_t>(64, mib / 16);
    return {"-XX:+UseSerialGC", "-Xmx" + std::to_string(mib / 4) + "m",
            "-XX:CompressedClassSpaceSize=" + std::to_string(small) + "m",
            "-XX:ReservedCodeCacheSize=" + std::to_string(small) + "m"};
}

// Besides the bot's own limit: bubblewrap, the launcher and a warm interpreter.
constexpr std::uint64_t kSandboxProcesses = 4;

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

BotPlayer::BotPlayer(PreparedBot bot, MoveLimits limits, const BotHost& host)
    : bot_(std::move(bot)),
      limits_(limits),
      registry_(host.registry),
      sandbox_(host.sandbox),
      identity_(sandbox_ ? sandbox_->new_identity(staging_key(bot_)) : std::nullopt),
      scratch_(sandbox_ ? std::nullopt : std::make_optional<TempDir>("gol-scratch", host.area.path())),
      interpreters_(host.interpreters) {
    const std::string scratch = sandbox_ ? kScratchInside : scratch_->path().string();
    // An allow-list: nothing of the host's environment (tokens, keys) reaches a bot.
    env_ = {"PATH=" + bots_path(host.interpreters), "HOME=" + scratch, "LANG=C.UTF-8", "GOL_SCRATCH=" + scratch};
    if (host.seed) env_.push_back("GOL_SEED=" + std::to_string(*host.seed));
    const Protocol protocol = bot_.spec.protocol;
    if (protocol == Protocol::argv) long_library_ = long_argument_library();
    launcher_ = make_launcher();
    spawn_spec_ = make_spawn_spec(false);
    rules_ = {forfeit_rules(true), forfeit_rules(false), std::nullopt};
    if (protocol == Protocol::persistent) lines_.emplace(*launcher_, spawn_spec_, rules_);
    if (protocol != Protocol::argv && protocol != Protocol::stdin) return;
    OneShotMoves::Commands commands{spawn_spec_, std::nullopt, warm_script_name(bot_.command),
                                    protocol == Protocol::stdin};
    if (long_library_) commands.long_board = make_spawn_spec(true);
    if (!host.warm || !bot_.spec.warm || commands.warm_script.empty() || !warm_script(commands.warm_script))
        commands.warm_script.clear();
    one_shot_.emplace(*launcher_, std::move(commands), rules_);
}

std::unique_ptr<Launcher> BotPlayer::make_launcher() const {
    if (!sandbox_) return Launcher::make(nullptr, SandboxView{{}, bot_.dir, env_, {}}, identity_, registry_);
    // One sandbox for the game's moves, so it shows what any of them needs: the bot's files, the
    // preload library for the moves whose board is too long for an argument, its scratch folder.
    SandboxView view{sandbox_->stage(staging_key(bot_), bot_.files), bot_.dir, env_,
                     {{kScratchInside, limits_.scratch_bytes, Sandbox::tmp_files}}};
    if (long_library_)
        for (SandboxView::Mount mount : sandbox_->stage("preload library", {*long_library_}, Sandbox::Files::host)) {
            mount.target = sandboxed_library_dir;  // as the launcher's folder (Launcher::make)
            view.mounts.push_back(std::move(mount));
        }
    // Copies, made once per run: the bot's user may not reach the originals (a root's pyenv).
    for (const fs::path& dir : interpreters_)
        std::ranges::copy(sandbox_->stage("interpreter " + dir.string(), {dir}, Sandbox::Files::host),
                          std::back_inserter(view.mounts));
    // One CPU's time at most, on the CPUs of the game's thread: a bot cannot take more than
    // its share of a -j league, however many processes it starts.
    const ResourceLimits& r = limits_.resources;
    const GroupLimits group{r.address_space, r.processes ? r.processes + kSandboxProcesses : 0, 100, allowed_cpus()};
    return Launcher::make(sandbox_, std::move(view), identity_, registry_, group);
}

CommandSpec BotPlayer::make_spawn_spec(bool long_board) const {
    CommandSpec spec;
    spec.argv = bot_.command;
    const std::vector<std::string> jvm = jvm_options(spec.argv, limits_.resources.address_space);
    if (!jvm.empty()) spec.argv.insert(spec.argv.begin() + 1, jvm.begin(), jvm.end());
    spec.env = env_;
    if (long_board) {
        const fs::path library =
            sandbox_ ? fs::path(sandboxed_library_dir) / long_library_->filename() : *long_library_;
        std::ranges::copy(long_argument_environment(library), std::back_inserter(*spec.env));
        spec.argv.push_back(long_argument_placeholder);
    }
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
    if (bot_.spec.protocol != Protocol::tlv) {
        encode_board(board, seat, tick, board_json_);
        return move(board_json_);
    }
    // Moves outside a game (check) come without begin().
    if (!tlv_) tlv_ = tlv_seat();
    return tlv_->move(board, seat, tick);
} catch (const RunnerFault& e) {
    throw RunnerFault(bot_.spec.name + "'s move at tick " + std::to_string(tick) + ": " + e.what());
}

MoveReport BotPlayer::move(const std::string& board_json) {
    if (lines_) return lines_->move(board_json);
    if (one_shot_) return one_shot_->move(board_json);
    throw std::logic_error("BotPlayer::move: a tlv bot is told no board");
}

void BotPlayer::begin(int seat, std::string_view opponent) {
    if (bot_.spec.protocol != Protocol::tlv) return;
    tlv_ = tlv_seat();
    tlv_->begin(seat, opponent);
}

std::unique_ptr<TlvSeat> BotPlayer::tlv_seat() {
    const auto judge = [this](MoveReport& turn, bool first, bool timed_out, bool out_of_memory) {
        const ForfeitRules rules = rules_.of(first);
        turn.startup = rules.startup;
        MoveOutcome outcome;
        outcome.kind = timed_out ? MoveOutcome::Kind::timed_out : MoveOutcome::Kind::replied;
        outcome.cpu = turn.cpu;
        outcome.out_of_memory = out_of_memory;
        outcome.elapsed = turn.elapsed;
        return move_forfeit(outcome, rules);
    };
    return std::make_unique<TlvSeat>(TlvProcess{*launcher_, spawn_spec_, judge}, rules_.first.wall_limit,
                                     rules_.later.wall_limit);
}

void BotPlayer::limit_next_move(std::optional<BankLeft> left) {
    // A tlv turn that runs out of time disconnects the bot and loses it the game (the 2014
    // rule); cut short by its bank it would lose the game where a spent bank only forfeits the
    // bot's later moves.
    if (bot_.spec.protocol != Protocol::tlv) rules_.bank = left;
}

void BotPlayer::end(const GameResult& result) {
    if (tlv_) tlv_->bye(result);
    tlv_.reset();
}

ForfeitRules BotPlayer::forfeit_rules(bool first) const {
    ForfeitRules rules;
    // A one-shot move's run, warm or cold, is its own to say (OneShotMoves).
    rules.run = bot_.spec.protocol == Protocol::tlv          ? ForfeitRules::Run::tlv
                : bot_.spec.protocol == Protocol::persistent ? ForfeitRules::Run::persistent
                                                             : ForfeitRules::Run::cold;
    rules.startup = first && limits_.startup_limit.count() > 0;
    rules.time_limit = limits_.time_limit + (rules.startup ? limits_.startup_limit : std::chrono::milliseconds(0));
    rules.cpu_time = limits_.cpu_time;
    // What the launcher waits for: the time limit, or the CPU-time mode's backstop.
    rules.wall_limit = limits_.cpu_time ? rules.time_limit * MoveLimits::cpu_time_backstop : rules.time_limit;
    rules.stdout_cap = limits_.stdout_cap;
    rules.limits = limits_.resources;
    // A JVM's start is CPU time too.
    if (rules.limits.cpu_seconds != 0 && rules.startup)
        rules.limits.cpu_seconds += static_cast<std::uint64_t>(std::chrono::ceil<std::chrono::seconds>(limits_.startup_limit).count());
    rules.tmp_bytes = sandbox_ ? Sandbox::tmp_bytes : 0;
    if (sandbox_ && sandbox_->groups().holds("memory")) rules.group_memory = limits_.resources.address_space;
    return rules;
}

}  // namespace gol::runner
