#include "runner/cli/command.hpp"

#include "runner/bots/bot.hpp"
#include "runner/sys/process.hpp"
#include "runner/game/replay.hpp"

#include <sys/prctl.h>

#include <csignal>
#include <iostream>

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
    app.require_subcommand(1);
    // The last of a repeated option wins, so scripts can append overrides.
    app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
    cli::Action run;
    cli::add_duel(app, run);
    cli::add_check(app, run);
    cli::add_replay(app, run);
    cli::add_league(app, run);
    cli::add_table(app, run);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        int code = app.exit(e);
        return code == 0 ? 0 : 2;
    }
    try {
        return run();
    } catch (const cli::UsageError& e) {
        std::cerr << "runner: error: " << e.what() << '\n';
        return 2;
    } catch (const BotError& e) {
        std::cerr << "runner: error: " << e.what() << '\n';
        return 2;
    } catch (const ReplayError& e) {
        std::cerr << "runner: error: " << e.what() << '\n';
        return 2;
    } catch (const std::exception& e) {
        std::cerr << "runner: internal error: " << e.what() << '\n';
        return 1;
    }
}
