#include "runner/bots/line_conversation.hpp"

#include <sys/ioctl.h>

namespace gol::runner {

using namespace pipes;

// How long what a process wrote as it ended may take to drain from its pipes.
constexpr auto kDrainLimit = std::chrono::seconds(2);

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
    const bool fresh = !process_;
    if (fresh) {
        ++restarts_;
        Launcher::Started started = launcher_.start(spec_);
        if (started.error.empty()) {
            process_.emplace(Process{std::move(started.streams), std::nullopt});
        } else {
            outcome.kind = MoveOutcome::Kind::could_not_start;
            outcome.start_error = std::move(started.error);
        }
    }
    const ForfeitRules rules = rules_.of(fresh);
    std::string line;
    if (process_) outcome = exchange(board_json, rules.wall_limit, line);
    MoveReport report = move_report(std::move(outcome), rules, line);
    if (report.forfeit) {
        // Every forfeit ends the process (a reply over the CPU limit: here).
        if (process_) launcher_.kill();
        process_.reset();
        gave_up_ = restarts_ >= max_restarts;
    }
    return report;
}

MoveOutcome LineConversation::exchange(std::string_view board, std::chrono::milliseconds timeout, std::string& line) {
    Streams& s = process_->streams;
    const auto start = Clock::now();
    s.err_buf.clear();
    s.err_truncated = false;
    MoveOutcome o;
    // What ends the process here: the launcher kills the rest of its namespace and reports.
    auto ended = [&](MoveOutcome::Kind kind, const RunOutcome& end) {
        o.kind = kind;
        o.ended = {end.exit_status, end.signal};
        o.out_of_memory = end.out_of_memory;
        o.err = s.err_buf;
        process_.reset();
        return o;
    };

    if (process_->ended) {
        RunOutcome end;
        set_ended(end, *process_->ended);
        return ended(MoveOutcome::Kind::ended, end);
    }
    // Anything already waiting on stdout was written after the last reply's line.
    pump(s, -1, start, [] { return false; });
    if (!s.out_buf.empty()) {
        line = std::move(s.out_buf);
        return ended(MoveOutcome::Kind::extra_output, launcher_.kill());
    }
    if (!launcher_.release()) return ended(MoveOutcome::Kind::ended, launcher_.kill());

    const std::string message = std::string(board) + '\n';
    s.to_write = message;
    std::size_t newline = std::string::npos;
    const Pumped r = pump(s, launcher_.control(), start + timeout, [&] {
        newline = s.out_buf.find('\n');
        return newline != std::string::npos;
    });
    o.elapsed = std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - start);
    // Asked only of a move that timed out: whether the bot had read its line at all.
    if (r == Pumped::timed_out) {
        int in_pipe = 0;
        o.board_unread = !s.to_write.empty() || (s.in && ::ioctl(s.in.get(), FIONREAD, &in_pipe) == 0 && in_pipe > 0);
    }
    s.to_write = {};
    switch (r) {
        case Pumped::done: break;
        case Pumped::timed_out: return ended(MoveOutcome::Kind::timed_out, launcher_.kill());
        case Pumped::stdout_overflow: return ended(MoveOutcome::Kind::stdout_overflow, launcher_.kill());
        case Pumped::child_exited: {
            // The launcher reported its end; what it wrote last is still in the pipes.
            const RunOutcome end = launcher_.kill();
            pump(s, -1, Clock::now() + kDrainLimit, [&] { return !s.out && !s.err; });
            return ended(MoveOutcome::Kind::ended, end);
        }
    }
    line = s.out_buf.substr(0, newline);
    s.out_buf.erase(0, newline + 1);
    o.err = s.err_buf;
    const Launcher::Held held = launcher_.hold();
    o.cpu = held.cpu;
    o.out_of_memory = held.out_of_memory;
    process_->ended = held.ended;
    return o;
}

}  // namespace gol::runner
