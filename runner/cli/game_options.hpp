// Options shared by the commands that play games.
#pragma once

#include "runner/bots/bot_build.hpp"
#include "runner/bots/bot_player.hpp"
#include "runner/cli/command.hpp"
#include "runner/game/game_loop.hpp"

#include <string>

namespace gol::runner::cli {

struct GameOptions {
    GameConfig config;
    int time_limit_ms = 1000;
    int memory_limit_mb = 1024;
    int cpu_limit_s = 0;
    int startup_limit_ms = 10000;
    std::string time_mode = "wall";  // or "cpu" (MoveLimits::cpu_time)
    bool sandbox = false;     // --sandbox: the default, still accepted so old command lines work
    bool no_sandbox = false;  // --no-sandbox
    bool cold = false;        // no bot runs warm (BotHost::warm)
    MoveLimits limits() const {
        return move_limits(time_limit_ms, memory_limit_mb, cpu_limit_s, startup_limit_ms, time_mode == "cpu");
    }
    // Whether bots run in the sandbox: yes unless --no-sandbox. Throws UsageError when both flags are given.
    bool sandboxed() const;
};

// --width, --height, --generations; add_game_options adds them with the rest.
void add_board_options(CLI::App& cmd, GameConfig& config);
void add_game_options(CLI::App& cmd, GameOptions& options);
// --time-bank SECONDS, of the commands that play whole games (duel, league): `config.time_bank_s`.
CLI::Option* add_time_bank_option(CLI::App& cmd, GameConfig& config);
// --interpreter DIR, repeatable; the folders made absolute.
CLI::Option* add_interpreter_option(CLI::App& cmd, std::vector<std::filesystem::path>& interpreters);

// What a command that plays needs around its bots: the run's work area, and the sandbox when
// the bots run in one (their builds then run in it too).
class PlaySetup {
public:
    // Throws UsageError when `sandboxed` and bubblewrap cannot be used here.
    explicit PlaySetup(bool sandboxed);
    PlaySetup(const PlaySetup&) = delete;
    PlaySetup& operator=(const PlaySetup&) = delete;

    const WorkArea& area() const { return area_; }
    Sandbox* sandbox() { return sandbox_ ? &*sandbox_ : nullptr; }
    BotHost host(ProcessRegistry* registry, bool warm, const Interpreters& interpreters) {
        return BotHost{area_, sandbox(), registry, warm, std::nullopt, interpreters};
    }

private:
    WorkArea area_;
    std::optional<Sandbox> sandbox_;
};

// Finds and builds a bot (in `sandbox` when given).
PreparedBot load_bot(const std::string& name_or_path, const BotLocations& where, Sandbox* sandbox);

}  // namespace gol::runner::cli
