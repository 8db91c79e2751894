// Turns a bot into a runnable command: compiles single-file sources and runs manifest builds,
// once per content hash, with results cached outside the bot's folder.
#pragma once

#include "runner/bot.hpp"

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

namespace gol::runner {

struct PreparedBot {
    BotSpec spec;
    std::vector<std::string> command;  // program resolved; argv protocol appends the board
    std::string hash;                  // content hash of the bot's source
    // A compiled single-file bot's program lives here, in the build cache: the sandbox shows it
    // read-only. Empty for other bots.
    std::filesystem::path build_dir;
};

struct BuildOptions {
    std::filesystem::path cache_dir;
    std::chrono::milliseconds timeout{std::chrono::minutes(5)};
};

// The PATH bots run with, whatever the runner's own: a host's shell set-up (pyenv shims,
// virtualenvs) must not change how fast or with what a bot runs.
inline constexpr const char* bot_path = "/usr/local/bin:/usr/bin:/bin";

// $XDG_CACHE_HOME/gol-runner, else ~/.cache/gol-runner.
std::filesystem::path default_cache_dir();

// Throws BotError with the last lines of the build's output when a build fails.
PreparedBot prepare_bot(const BotSpec& spec, const BuildOptions& options);

}  // namespace gol::runner
