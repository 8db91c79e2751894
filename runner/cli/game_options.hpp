// Options shared by the commands that play games.
#pragma once

#include "runner/bot_build.hpp"
#include "runner/bot_player.hpp"
#include "runner/cli/command.hpp"
#include "runner/match.hpp"

#include <string>

namespace gol::runner::cli {

struct GameOptions {
    GameConfig config;
    int time_limit_ms = 1000;
    int memory_limit_mb = 1024;
    int cpu_limit_s = 0;
    bool sandbox = false;
    MoveLimits limits() const { return move_limits(time_limit_ms, memory_limit_mb, cpu_limit_s); }
};

void add_game_options(CLI::App& cmd, GameOptions& options);

// bubblewrap's path when --sandbox was given; a usage error when it cannot be used.
std::optional<std::string> sandbox_for(const GameOptions& options);

// Finds and builds a bot, telling the user on stderr when a build runs.
PreparedBot load_bot(const std::string& name_or_path, const BotLocations& where);

}  // namespace gol::runner::cli
