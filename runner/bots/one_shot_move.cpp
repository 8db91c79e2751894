#include "runner/bots/one_shot_move.hpp"

#include "runner/sandbox/long_argument.hpp"

namespace gol::runner {

namespace {

Forfeit board_too_large(std::size_t bytes, std::string_view why) {
    return Forfeit{ForfeitKind::board_too_large, "the board is " + std::to_string(bytes) +
                                                     " bytes of JSON, over Linux's 128 KiB limit for one argument, and " +
                                                     std::string(why)};
}

// A move's wall-clock and CPU limits, as its rules say.
CommandSpec limited(CommandSpec spec, const ForfeitRules& rules) {
    spec.timeout = rules.wall_limit;
    spec.limits = rules.limits;
    return spec;
}

}  // namespace

OneShotMoves::OneShotMoves(Launcher& launcher, Commands commands, const MoveRules& rules)
    : launcher_(launcher), commands_(std::move(commands)), rules_(rules) {}

MoveReport OneShotMoves::move(const std::string& board_json) {
    ForfeitRules rules = rules_.of(!moved_);
    moved_ = true;
    CommandSpec spec = limited(commands_.plain, rules);
    if (commands_.stdin_board) spec.stdin_data = board_json + "\n";
    else spec.argv.push_back(board_json);
    std::optional<RunOutcome> ran;
    // Warm: no exec, so no limit on an argument's length: a long board is an argument like any.
    if (warm()) {
        ran = launcher_.run(spec, commands_.warm_script);
        // A launcher that cannot keep a warm interpreter (none in the bot's PATH, no /proc of its
        // own) will not later in the game either: every later move runs cold.
        if (!ran) commands_.warm_script.clear();
    }
    rules.run = warm() ? ForfeitRules::Run::warm : ForfeitRules::Run::cold;
    std::optional<LongArgument> long_board;
    if (!ran && !commands_.stdin_board && too_long_for_argv(board_json)) {
        if (!commands_.long_board) {
            MoveReport report;
            report.startup = rules.startup;
            report.forfeit = board_too_large(
                board_json.size(), "the runner's preload library that delivers it is missing (libgol_long_argument.so, in "
                                   "lib/gol-runner/ or lib/ beside the runner's bin/): rebuild or reinstall the runner, "
                                   "or use the stdin protocol");
            return report;
        }
        spec = limited(*commands_.long_board, rules);
        long_board.emplace(board_json);
        spec.pass_fd = CommandSpec::PassedFd{long_board->fd(), long_argument_fd};
    }
    if (!ran) ran = launcher_.run(spec);
    MoveOutcome outcome = move_outcome(*ran);
    outcome.err = std::move(ran->err);
    MoveReport report = move_report(std::move(outcome), rules, ran->out);
    // Whatever it replied, it did not reply to its board.
    if (long_board && ran->kind != RunOutcome::Kind::spawn_failed && !long_board->taken())
        static_cast<Move&>(report) = Move{{}, board_too_large(board_json.size(),
                                                              "the bot's program did not take it from the runner's "
                                                              "preload library (LD_PRELOAD has no effect on a statically "
                                                              "linked executable): link the bot dynamically, or use the "
                                                              "stdin protocol (docs/protocol.md)")};
    return report;
}

}  // namespace gol::runner
