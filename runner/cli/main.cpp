#include "runner/cli/command.hpp"

#include "runner/arena/arena_keys.hpp"
#include "runner/arena/arena_server.hpp"
#include "runner/bots/bot.hpp"
#include "runner/league/league.hpp"
#include "runner/league/tournament.hpp"
#include "runner/sandbox/launcher.hpp"
#include "runner/sys/process.hpp"
#include "runner/game/replay.hpp"
#include "runner/text/suggestion.hpp"
#include "runner/text/terminal_text.hpp"

#include <sys/prctl.h>

#include <algorithm>
#include <csignal>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

namespace {

using gol::runner::suggestion;
using gol::runner::terminal_line;

// CLI11 says "A subcommand is required" for `runner dual`, "B is required" for `runner duel a`,
// and lists an unknown flag among the other leftovers without a hint: the message for these
// mistakes, or none for the others.
std::optional<std::string> mistake_message(CLI::App& app, int argc, char** argv) {
    const std::vector<CLI::App*> chosen = app.get_subcommands();
    if (chosen.empty()) {
        if (argc < 2 || argv[1][0] == '-') return std::nullopt;
        std::vector<std::string> names;
        for (const CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; }))
            names.push_back("'" + sub->get_name() + "'");
        const std::string word = "'" + std::string(argv[1]) + "'";
        return "unknown command " + terminal_line(word) + suggestion(word, names) + " (runner --help lists the commands)";
    }
    CLI::App& sub = *chosen.front();
    // CLI11 says "B is required": which argument is missing, in words, and the command's form.
    std::string usage, missing;
    for (const CLI::Option* opt : sub.get_options()) {
        if (opt->get_positional()) usage += " " + opt->get_name();
        if (opt->get_positional() && opt->get_required() && opt->count() == 0 && missing.empty())
            missing = opt->get_name() + " (" + opt->get_description() + ")";
    }
    if (!missing.empty())
        return sub.get_name() + " is missing " + missing + ": runner " + sub.get_name() + " [OPTIONS]" + usage +
               " (runner " + sub.get_name() + " --help)";
    std::vector<std::string> flags;
    for (const CLI::Option* opt : sub.get_options())
        for (const std::string& long_name : opt->get_lnames()) flags.push_back("--" + long_name);
    for (const std::string& arg : app.remaining(true))
        if (arg.starts_with("--"))
            return "unknown option " + terminal_line(arg) + " for " + sub.get_name() + suggestion(arg.substr(0, arg.find('=')), flags) +
                   " (runner " + sub.get_name() + " --help lists the options)";
    return std::nullopt;
}

template <typename... Errors>
bool one_of(const std::exception& e) {
    return (... || dynamic_cast<const Errors*>(&e));
}

}  // namespace

int main(int argc, char** argv) {
    using namespace gol::runner;
    // Not dumpable: a bot running as our own (non-root) user may not ptrace us or open our
    // /proc/PID/mem, environ and the like, where the other bot's moves and the host's secrets are.
    // Root's bots have CAP_SYS_PTRACE, which overrides this (docs/sandbox.md).
    ::prctl(PR_SET_DUMPABLE, 0);
    become_subreaper();
    // A bot that closes its stdin early must not kill the runner with SIGPIPE.
    std::signal(SIGPIPE, SIG_IGN);

    CLI::App app("Tournament runner for the two-player Game of Life contest (PPCG 2016)", "runner");
    // The project's version, from CMake (runner/CMakeLists.txt): what a bug report names.
    app.set_version_flag("--version", "runner " GOL_RUNNER_VERSION);
    app.require_subcommand(1);
    // The last of a repeated option wins, so scripts can append overrides.
    app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
    cli::Action run;
    cli::add_duel(app, run);
    cli::add_check(app, run);
    cli::add_replay(app, run);
    cli::add_league(app, run);
    cli::add_table(app, run);
    cli::add_import(app, run);
    cli::add_serve(app, run);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        if (dynamic_cast<const CLI::RequiredError*>(&e) || dynamic_cast<const CLI::ExtrasError*>(&e))
            if (std::optional<std::string> message = mistake_message(app, argc, argv)) {
                std::cerr << "runner: error: " << *message << '\n';
                return 2;
            }
        int code = app.exit(e);
        return code == 0 ? 0 : 2;
    }
    try {
        return run();
    } catch (const RunnerFault& e) {
        // A duel's or a check's: a league tells which games it could not play.
        std::cerr << "runner: error: stopped by a fault of the runner's, not of a bot (no result kept): " << e.what()
                  << '\n';
        return 1;
    } catch (const std::exception& e) {
        // Bad input, from the command line or a file it names: exit status 2.
        if (one_of<cli::UsageError, BotError, ReplayError, TournamentError, GameChoiceError, KeysError>(e)) {
            std::cerr << "runner: error: " << e.what() << '\n';
            return 2;
        }
        // A results store or an arena that cannot go on is no bug of the runner's.
        std::cerr << (one_of<StoreError, ArenaError>(e) ? "runner: error: " : "runner: internal error: ") << e.what()
                  << '\n';
        return 1;
    }
}
