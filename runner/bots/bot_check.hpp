// `runner check`'s measuring and judging: a bot tried on sample boards as a league runs it, each
// reply classified, its times summed up with what they mean, its warm replies compared with its
// cold ones, and whether it passes. cli/check_command.cpp prints the report.
#pragma once

#include "runner/bots/bot_player.hpp"
#include "runner/game/game_loop.hpp"
#include "runner/game/off_board.hpp"

#include <algorithm>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gol::runner {

// Over this a move is slow, and the check says why.
inline constexpr std::chrono::milliseconds kSlowMove{100};

// How a bot's moves run.
enum class RunMode {
    warm,              // forked from an interpreter started once per game
    persistent,        // one process for the whole game
    tlv,               // one process for the whole game, over TCP, keeping its own board
    cold_by_manifest,  // a new process per move, as "warm": false in its bot.json asks
    per_move,          // a new process per move
};
RunMode run_mode(const BotPlayer& player);

// A board the check plays, by the name it prints.
struct CheckBoard {
    const char* what;
    Board board;
    bool over_argument_limit = false;
    int seat = 0;  // the one seat it is played as; 0: both
    // The tick_id of its first run, where a game has such a board; later runs count on from it,
    // as a game's ticks do, unless `same_tick` (--board's one move).
    int tick = 0;
    bool same_tick = false;
    bool late_game = false;  // as dense as a late game: played once per seat, its time reported apart
    // Denser than most games reach: a timeout there is slowness, reported apart, not a broken protocol.
    bool dense = false;
    bool plays(int s) const { return seat == 0 || seat == s; }
    // The tick_id of run `run` in a game of `generations`.
    int tick_of(int run, int generations) const { return same_tick ? tick : std::max(tick, std::min(tick + run, generations - 1)); }
};

// The empty board at tick 0, a busy one a tenth into the game, one whose JSON is over Linux's
// 128 KiB argument limit at its middle when the configured board can hold one, and one as dense
// as a late game of block builders nine tenths into it (30% of the board alive: 300000 cells and
// about 5 MB of JSON on 1000x1000).
std::vector<CheckBoard> check_boards(const GameConfig& config);

// A failure repeated identically this many times in a row ends the check: more say no more.
inline constexpr int kSameFailureStop = 3;

// One move of the check, told as it is made.
struct CheckedMove {
    const CheckBoard& board;
    int seat = 1, run = 0;
    int tick = 0;  // its tick_id
    std::size_t json_bytes = 0;  // the board's JSON as this seat gets it
    const MoveReport& report;
    int applied = 0;  // of a valid reply's cells, those that would be placed
    std::optional<OffBoard> off_board;  // a valid reply with some of its cells off the board
};

// Whether a board over the argument limit reached the bot.
enum class BigBoard { not_tried, delivered, not_delivered };

// A board's median move time, moves that timed out left out: they say nothing of how long a reply takes.
struct BoardTime {
    const char* what;
    std::chrono::microseconds median;
};

// Why moves are slow: the board whose median move time is the longest, over kSlowMove, and the
// board answered fastest, which for a bot started per move is about what starting it costs.
struct SlowMoves {
    enum class Cause {
        persistent_work,  // its process starts once per game: the time is its own work
        warm_work,        // its interpreter does not start per move: the time is its own work
        start_up,         // even the fastest board is slow: mostly starting the program
        own_work,         // the fastest board is quick: the time went into the bot's work
        both,             // about the fastest board's time is start-up, the rest its work
    };
    Cause cause;
    BoardTime slowest, fastest;
};

// One board and seat answered twice cold and once warm.
struct WarmAgainstCold {
    enum class Outcome {
        varies,     // its two cold replies differ: the bot uses randomness or keeps state; not compared
        same,
        different,  // warm and cold give different replies
    };
    const char* what;
    int seat;
    Outcome outcome;
    Move warm, cold;
};

struct CheckReport {
    int moves = 0;
    // Moves that would be forfeited, but for timeouts on boards as dense as a late game: those
    // are slowness (`late_game`), not a broken protocol.
    int invalid = 0;
    int timeouts = 0;  // forfeited for the time limit, on any board
    BigBoard big_board = BigBoard::not_tried;
    // When a move failed in the sandbox: the first such move's stderr lines that name what the
    // sandbox refused it (a read-only file system, a permission, the network), maybe none.
    std::optional<std::vector<std::string>> sandbox_refusals;
    std::chrono::microseconds median{0}, max{0};
    std::chrono::seconds per_game{0};  // the bot's time in a game of the configured generations
    // A persistent bot's moves that got no reply line in time: its replies may sit unflushed.
    int unflushed = 0;
    // Valid replies with most of their cells off the board, and the first of them (a warning).
    int off_board = 0;
    std::optional<OffBoard> first_off_board;
    // Valid replies with some of their cells off the board, at most half, and the first (a note).
    int partly_off_board = 0;
    std::optional<OffBoard> first_partly_off_board;
    std::optional<SlowMoves> slow;
    // The late-game board's moves: how long the bot takes when the board is at its densest.
    struct LateGame {
        std::size_t live_cells = 0;
        std::size_t json_bytes = 0;
        std::chrono::microseconds max{0};
        int timeouts = 0;
        // When it timed out there: the sparsest of the sparser boards and the late-game one
        // whose move timed out, and the densest answered in time below it (0: none was).
        int slow_from_percent = 0;
        std::size_t slow_from_cells = 0;
        int in_time_percent = 0;
    };
    std::optional<LateGame> late_game;
    // Set when a failure repeated kSameFailureStop times in a row ended the check early.
    bool stopped = false;
    std::vector<WarmAgainstCold> warm_against_cold;  // a warm bot's boards, else empty
    int warm_differs() const;
    bool passes() const { return invalid == 0 && warm_differs() == 0; }
};

struct CheckSettings {
    int runs = 5;  // moves per board and seat
    int generations = 0;
    bool sandboxed = false;
};

// The bot the check plays.
struct CheckedBot {
    Mover& mover;   // plays the measured moves: the bot's player, or that player traced (-v)
    Mover& player;  // the bot's player itself, for its warm replies
    RunMode mode;
    // The bot run cold: made once the moves are measured, and only for a warm bot.
    std::function<std::unique_ptr<Mover>()> make_cold;
};

// Plays each board `runs` times per seat, telling `on_move` of each move as it is made. Then, for
// a warm bot, answers each board twice cold and once warm, and compares the replies.
CheckReport check_bot(const CheckedBot& bot, const std::vector<CheckBoard>& boards, const CheckSettings& settings,
                      const std::function<void(const CheckedMove&)>& on_move);

// A bot's stderr as lines, without the blank ones at its end.
std::vector<std::string_view> lines_of(std::string_view text);

}  // namespace gol::runner
