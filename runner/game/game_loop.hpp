// One game: the tick loop, move order, and who wins (rules in docs/rules.md).
#pragma once

#include "runner/game/move.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <stop_token>
#include <string_view>

namespace gol::runner {

// Bump when anything that decides a game's result changes: stored league games are keyed by it.
inline constexpr std::string_view rules_version = "ppcg2016-1";

struct GameConfig {
    // The most generations a game may have: flags, tournament files and replays are held to it.
    static constexpr int max_generations = 10'000'000;
    int width = 1000;
    int height = 1000;
    int generations = 10000;
    // The 2014 arena's end (runner serve --clock): when above 0, a game also ends after the
    // generation in which this many seconds have passed since it began, the larger side winning.
    int clock_s = 0;
    // The time bank (--time-bank, docs/rules.md): when above 0, the seconds of wall-clock move
    // time each seat has for the whole game; once they are spent, its moves are forfeited
    // (`time_bank`) without asking its mover.
    int time_bank_s = 0;
    static constexpr int max_time_bank_s = 1'000'000;
};

// forfeit: a seat's move was a `disconnected` forfeit (an arena client, docs/arena.md);
// clock: the game's clock time ran out (GameConfig::clock_s).
enum class EndReason { extinction, generations, forfeit, clock };
std::string_view name(EndReason reason);
std::optional<EndReason> end_reason_from_name(std::string_view text);

struct Verdict {
    int winner_seat = 0;  // 1 or 2; 0 for a draw
    EndReason reason = EndReason::generations;
};

// The rule applied after each generation: one side extinct ends the game; otherwise it ends
// after the last generation with the larger population winning.
std::optional<Verdict> judge(std::int64_t cells1, std::int64_t cells2, int generation, int last_generation);

struct GameResult {
    Verdict verdict;
    int generations = 0;  // generations played
    std::array<std::int64_t, 2> cells{};
    std::array<int, 2> forfeits{};
};

class GameObserver {
public:
    virtual ~GameObserver() = default;
    // `move` holds the cells actually placed, or the forfeit.
    virtual void on_move(int /*tick*/, int /*seat*/, const MoveReport& /*move*/) {}
    virtual void on_generation(int /*generation*/, std::int64_t /*cells1*/, std::int64_t /*cells2*/) {}
};

// Thrown when a game is stopped from outside: nothing of it is to be kept.
struct GameInterrupted : std::runtime_error {
    GameInterrupted() : std::runtime_error("game interrupted") {}
};

// Seat 1 moves and its cells are placed, then seat 2 moves seeing them, then one generation;
// repeated until judge() decides. A `disconnected` forfeit ends the game after that generation,
// won by the other seat, which is not asked for its move when it had not moved yet. A seat whose
// time bank is spent (time_bank.hpp) is not asked either: its move is a `time_bank` forfeit.
// Throws GameInterrupted once `stop` is requested.
GameResult play_game(Mover& seat1, Mover& seat2, const GameConfig& config, GameObserver& observer,
                     std::stop_token stop = {});

// The same on `board`, which must be empty and is left as the game ends: `generations` is the
// game's limit, and there is no clock and no time bank.
GameResult play_game(Board& board, Mover& seat1, Mover& seat2, int generations, GameObserver& observer,
                     std::stop_token stop = {});

}  // namespace gol::runner
