#include "runner/cli/game_options.hpp"

#include "engine/board.hpp"
#include "runner/sandbox/sandbox.hpp"

#include <unistd.h>

namespace gol::runner::cli {

void add_board_options(CLI::App& cmd, GameConfig& config) {
    cmd.add_option("--width", config.width, "Board width, x_size")
        ->check(CLI::Range(1, Board::max_side))
        ->capture_default_str();
    cmd.add_option("--height", config.height, "Board height, y_size")
        ->check(CLI::Range(1, Board::max_side))
        ->capture_default_str();
    cmd.add_option("--generations", config.generations, "Generations in a game")
        ->check(CLI::Range(1, GameConfig::max_generations))
        ->capture_default_str();
}

void add_game_options(CLI::App& cmd, GameOptions& o) {
    add_board_options(cmd, o.config);
    cmd.add_option("--time-limit", o.time_limit_ms, "Wall-clock limit per move, in milliseconds")
        ->check(CLI::Range(1, 600'000))
        ->capture_default_str();
    cmd.add_option("--startup-limit", o.startup_limit_ms,
                   "Allowed on top of the time limit for a bot's first move (and a persistent bot's first after "
                   "each start), in milliseconds")
        ->check(CLI::Range(0, 600'000))
        ->capture_default_str();
    cmd.add_option("--time-mode", o.time_mode,
                   "wall: the time limit is wall-clock time; cpu: CPU time of the bot's whole tree (fair on a loaded "
                   "machine), with the wall clock stopping a move at 5 times the limit")
        ->check(CLI::IsMember({"wall", "cpu"}))
        ->capture_default_str();
    cmd.add_option("--memory-limit", o.memory_limit_mb, "Memory per bot, in MiB: its control group's, and address space per process")
        ->check(CLI::Range(16, 1 << 20))
        ->capture_default_str();
    cmd.add_flag("--no-sandbox", o.no_sandbox,
                 "Run bots and their builds without bubblewrap (by default they run inside it, docs/sandbox.md)");
    cmd.add_flag("--sandbox", o.sandbox, "Run bots inside bubblewrap: the default");
    cmd.add_flag("--cold", o.cold, "Run Python and Ruby bots the plain way: a new interpreter per move, not a fork of a warm one");
    cmd.add_option("--cpu-limit", o.cpu_limit_s, "CPU seconds per move (default: the time limit, rounded up)")
        ->check(CLI::Range(1, 3600));
}

CLI::Option* add_time_bank_option(CLI::App& cmd, GameConfig& config) {
    return cmd.add_option("--time-bank", config.time_bank_s,
                          "Seconds of move time (wall clock) each bot has for a whole game; once they are spent, its "
                          "later moves are forfeited without running it (docs/rules.md). 0: none, as in 2016")
        ->type_name("SECONDS")
        ->check(CLI::Range(0, GameConfig::max_time_bank_s))
        ->capture_default_str();
}

bool GameOptions::sandboxed() const {
    if (sandbox && no_sandbox) throw UsageError("--sandbox and --no-sandbox contradict each other");
    return !no_sandbox;
}

CLI::Option* add_interpreter_option(CLI::App& cmd, std::vector<std::filesystem::path>& interpreters) {
    return cmd.add_option("--interpreter", interpreters,
                   "A folder of an interpreter outside /usr (such as a pyenv's python2), repeatable: bots find "
                   "programs in its bin/, and the sandbox shows it read-only (docs/sandbox.md)")
        ->check(CLI::ExistingDirectory)
        // Shown in the sandbox at the same path: an absolute one.
        ->transform([](const std::string& dir) { return std::filesystem::absolute(dir).lexically_normal().string(); });
}

void add_bot_locations(CLI::App& cmd, BotLocations& where) {
    cmd.add_option("--bots", where.bots_dir, "Where bots named without a path are looked up")->capture_default_str();
    cmd.add_option("--cache", where.cache_dir, "Build cache (default $XDG_CACHE_HOME/gol-runner or ~/.cache/gol-runner)");
    add_interpreter_option(cmd, where.interpreters);
}

// A root runner's sandboxed processes are another user, who must reach the work area.
PlaySetup::PlaySetup(bool sandboxed) : area_([sandboxed] {
    try {
        return WorkArea(sandboxed && ::geteuid() == 0);
    } catch (const std::runtime_error& e) {
        throw UsageError(e.what());
    }
}()) {
    if (!sandboxed) return;
    const std::optional<std::string> bwrap = Sandbox::find_bubblewrap();
    if (!bwrap)
        throw UsageError("the sandbox needs bubblewrap, and it is not installed or cannot create its namespaces here (as "
                         "an unprivileged user, when the runner is root): install it (apt-get install bubblewrap; "
                         "scripts/setup does), or run the bots without it, which the runner does only when told to "
                         "(--no-sandbox)");
    sandbox_.emplace(*bwrap, area_);
}

PreparedBot load_bot(const std::string& name_or_path, const BotLocations& where, Sandbox* sandbox) {
    const BuildOptions build{.cache_dir = where.cache_dir.empty() ? default_cache_dir() : where.cache_dir,
                             .sandbox = sandbox,
                             .interpreters = where.interpreters};
    return prepare_bot(find_bot(name_or_path, where.bots_dir), build);
}

}  // namespace gol::runner::cli
