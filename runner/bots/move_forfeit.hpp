// From how a bot's process ended to the forfeit it earns, whichever way the move ran (a process
// of its own, a fork of a warm interpreter, a line to a persistent bot, a tlv turn): one
// function, so every protocol names a limit, a crash or a slow move in the same words. And the
// hint that check and duel print for an argv bot that reads stdin.
#pragma once

#include "runner/bots/bot.hpp"
#include "runner/game/move.hpp"
#include "runner/sys/process.hpp"

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gol::runner {

// How a move's process ended, as its launcher reported it: the real wait status, never one
// decoded from a wrapper such as bubblewrap.
struct MoveOutcome {
    enum class Kind {
        replied,          // a per-move process that exited with status 0, or a persistent bot's line
        timed_out,        // no reply within the time limit
        stdout_overflow,  // more output than the cap
        ended,            // exited with another status or by a signal; a persistent bot's any end
        could_not_start,  // start_error says why
        extra_output      // a persistent bot wrote beyond its previous reply's line
    };
    Kind kind = Kind::replied;
    Ended ended;  // ended: how
    std::string start_error;  // could_not_start
    std::string err;          // its stderr, as far as it was kept
    // The move's CPU time where it is known: its control group's, else its launcher's count
    // (for a persistent bot RLIMIT_CPU would count the whole game).
    std::optional<std::chrono::microseconds> cpu;
    // The kernel killed a process of the bot's control group for memory during the move.
    bool out_of_memory = false;
    std::chrono::microseconds elapsed{0};  // wall-clock time of the move
    // A persistent bot that timed out had not read all of its board.
    bool board_unread = false;
};

// A per-move process's outcome in those terms (err left to the caller).
MoveOutcome move_outcome(const RunOutcome& run);

// What the forfeit's words depend on besides the outcome.
struct ForfeitRules {
    enum class Run { cold, warm, persistent, tlv };
    Run run = Run::cold;
    std::chrono::milliseconds time_limit{1000};  // this move's
    bool startup = false;  // time_limit includes the start-up allowance of a first move
    bool cpu_time = false;  // time_limit counts CPU time (MoveLimits::cpu_time)
    std::chrono::milliseconds wall_limit{1000};  // what ended a move that timed out
    // Not 0: wall_limit is what was left of the bot's time bank of this many seconds, less than
    // its own limit (MoveRules::of).
    int time_bank_s = 0;
    std::size_t stdout_cap = 0;
    ResourceLimits limits;  // as set on the process (cpu_seconds: per move, also for a persistent bot)
    std::uint64_t tmp_bytes = 0;  // the sandbox's /tmp, /dev/shm and scratch each; 0 without the sandbox
    std::uint64_t group_memory = 0;  // the bot's control group's memory limit; 0 without one
};

// A bot's rules for one game, made when it starts: for a first move (with the start-up
// allowance, when there is one) and for the others; and what is left of its time bank for its
// next move, when it has one (Mover::limit_next_move).
struct MoveRules {
    ForfeitRules first, later;
    std::optional<BankLeft> bank;
    // The next move's rules: its wall-clock limit at most what is left of the bank (rounded up
    // to a whole millisecond, so that a move cut there spends the bank), in `--time-mode cpu`
    // too, where the bank still counts wall-clock time.
    ForfeitRules of(bool first_move) const;
};

// The forfeit for `outcome`, or nullopt for a reply whose text is still to be judged
// (game/protocol.hpp). A process that ended of one of its limits gets the limit named: by its
// signal (SIGXCPU, SIGXFSZ) or, where a limit has none or a runtime catches it, by the
// runtime's own words on stderr.
std::optional<Forfeit> move_forfeit(const MoveOutcome& outcome, const ForfeitRules& rules);

// What a move did, how it ended and the words for it: the forfeit `outcome` earns, else the move
// its reply `out` holds (game/protocol.hpp's parse_reply), with its time, CPU time, stderr and
// the start of its stdout. Every conversation with a bot ends its move here.
MoveReport move_report(MoveOutcome outcome, const ForfeitRules& rules, std::string_view out);

// For an argv bot whose failed move's stderr reads as a parse of empty input or a read of stdin
// at its end: what it does wrong and the fix, which its language's JSON reader, saying only that
// the input ended, names neither of. Nothing else.
std::optional<std::string> stdin_hint(Protocol protocol, std::string_view err);

}  // namespace gol::runner
