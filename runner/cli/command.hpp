// The subcommands of `runner`, and how their errors map to exit statuses.
#pragma once

#include <CLI/CLI.hpp>

#include <filesystem>
#include <functional>
#include <stdexcept>
#include <vector>

namespace gol::runner::cli {

// Bad input from the user: exit status 2.
struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Each adds its subcommand to `app`; when it is chosen, `run` is set to its action, which
// returns the exit status.
using Action = std::function<int()>;
void add_duel(CLI::App& app, Action& run);
void add_check(CLI::App& app, Action& run);
void add_replay(CLI::App& app, Action& run);
void add_league(CLI::App& app, Action& run);
void add_table(CLI::App& app, Action& run);
void add_import(CLI::App& app, Action& run);
void add_serve(CLI::App& app, Action& run);

// Which options a command was given (its App, set when it is added): those override the settings
// of a tournament file or a replay.
struct GivenOptions {
    const CLI::App* command = nullptr;
    bool set(const std::string& name) const { return command->count(name) > 0; }
};

// Options that name where bots and build products are.
struct BotLocations {
    std::filesystem::path bots_dir = "bots";
    std::filesystem::path cache_dir;
    std::vector<std::filesystem::path> interpreters;  // --interpreter (bot_build.hpp's Interpreters)
};
void add_bot_locations(CLI::App& cmd, BotLocations& where);

}  // namespace gol::runner::cli
