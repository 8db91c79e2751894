// Turns a bot into a runnable command: compiles single-file sources and runs manifest builds,
// once per content hash, on copies, with results cached outside the bot's folder. With a
// sandbox, every build and compiler runs inside it (docs/sandbox.md).
#pragma once

#include "runner/bots/bot.hpp"

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

namespace gol::runner {

class Sandbox;

struct PreparedBot {
    BotSpec spec;
    std::vector<std::string> command;  // program resolved; argv protocol appends the board
    std::string hash;                  // content hash of the bot's source, as named
    // Where the bot runs: its own folder, or for a manifest bot with a build, the built copy in
    // the cache.
    std::filesystem::path dir;
    // What of the host its program reads: `dir`, or a single-file bot's file (shown alone in its
    // folder), and a compiled bot's build in the cache. The sandbox shows these and nothing else.
    std::vector<std::filesystem::path> files;
};

// Folders of interpreters outside /usr that a host makes available (--interpreter; a pyenv's
// python2 for the 2016 answers): a bot's program named without a slash is looked up in their
// bin/ after bot_path, their bin/ ends the bots' PATH, and the sandbox shows them read-only at
// their own paths.
using Interpreters = std::vector<std::filesystem::path>;

struct BuildOptions {
    std::filesystem::path cache_dir;
    std::chrono::milliseconds timeout{std::chrono::minutes(5)};
    Sandbox* sandbox = nullptr;  // where builds and compilers run, when set
    Interpreters interpreters = {};  // where a bot's program is looked up besides bot_path
};

// The PATH bots and builds run with, whatever the runner's own: a host's shell set-up (pyenv
// shims, virtualenvs) must not change how fast or with what a bot runs.
inline constexpr const char* bot_path = "/usr/local/bin:/usr/bin:/bin";

// bot_path and each interpreter folder's bin/.
std::string bots_path(const Interpreters& interpreters);

// $XDG_CACHE_HOME/gol-runner, else ~/.cache/gol-runner.
std::filesystem::path default_cache_dir();

// Throws BotError with the last lines of the build's output when a build fails. With a sandbox,
// the bot's files are staged (Sandbox::stage, under staging_key) before it is handed back: a
// refused copy is a BotError naming why.
PreparedBot prepare_bot(const BotSpec& spec, const BuildOptions& options);

// The key of a prepared bot's staged files in the sandbox: the same bot, the same copy.
std::string staging_key(const PreparedBot& bot);

}  // namespace gol::runner
