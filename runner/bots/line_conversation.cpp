#include "runner/bots/line_conversation.hpp"

namespace gol::runner {

LineConversation::LineConversation(Launcher& launcher, CommandSpec spec, const MoveRules& rules)
    : launcher_(launcher), spec_(std::move(spec)), rules_(rules) {}

MoveReport LineConversation::move(const std::string& board_json) {
    if (gave_up_) {
        MoveReport report;
        report.forfeit = Forfeit{ForfeitKind::gave_up, "the bot sits out the rest of the game: it failed and was "
                                                       "restarted " + std::to_string(max_restarts) +
                                                           " times (its first forfeits say why)"};
        return report;
    }
    MoveOutcome outcome;
    // Its first move after each start has the start-up allowance.
    const bool fresh = !launcher_.persistent_running();
    if (fresh) {
        ++restarts_;
        outcome.start_error = launcher_.start_persistent(spec_);
        if (!outcome.start_error.empty()) outcome.kind = MoveOutcome::Kind::could_not_start;
    }
    const ForfeitRules& rules = rules_.of(fresh);
    Launcher::LineReply reply;
    if (outcome.start_error.empty()) {
        reply = launcher_.exchange(board_json, rules.wall_limit);
        outcome = move_outcome(reply);
        outcome.err = std::move(reply.err);
    }
    MoveReport report = move_report(std::move(outcome), rules, reply.line);
    if (report.forfeit) {
        // Every forfeit ends the process (a reply over the CPU limit: here).
        launcher_.end_persistent();
        gave_up_ = restarts_ >= max_restarts;
    }
    return report;
}

}  // namespace gol::runner
