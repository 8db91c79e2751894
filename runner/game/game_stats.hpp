// What a game report needs beyond its result: move times, forfeits by reason, the bots' stderr.
#pragma once

#include "runner/game/game_loop.hpp"

#include <array>
#include <chrono>
#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <vector>

namespace gol::runner {

struct SeatStats {
    std::vector<std::chrono::microseconds> move_times;  // of the moves that ran (not those of a spent time bank)
    std::vector<std::chrono::microseconds> cpu_times;  // of the moves whose CPU time is known
    // Of the moves that did not time out, but for those with a start-up allowance (a bot's first):
    // near-timeouts are counted against the game's limit later.
    std::vector<std::chrono::microseconds> in_time_move_times;
    int timeouts = 0;
    std::map<std::string, int> forfeits_by_reason;
    std::string last_forfeit;  // "reason: detail" of the most recent forfeit
    // The last lines of stderr of the most recent move that crashed (exit_status or signal), and
    // its tick: where a traceback says why.
    std::vector<std::string> crash_stderr;
    int crash_tick = 0;
};

// How many of a crash's last stderr lines a seat keeps.
inline constexpr std::size_t crash_stderr_lines = 5;

// A seat's time over a game's moves, as game records keep it and the league table sums it.
struct MoveTiming {
    int moves = 0;
    std::chrono::microseconds wall_total{0}, wall_max{0};
    int cpu_moves = 0;  // moves whose CPU time was measured; the CPU figures cover only those
    std::chrono::microseconds cpu_total{0}, cpu_max{0};
    int timeouts = 0;
    int near_timeouts = 0;  // moves that took over 80% of the time limit and did not time out
    MoveTiming& operator+=(const MoveTiming& other);
    friend bool operator==(const MoveTiming&, const MoveTiming&) = default;
};

// A seat's timing in a game played with `time_limit`.
MoveTiming move_timing(const SeatStats& seat, std::chrono::milliseconds time_limit);

// "reason n, reason n" in reason order, as reports show a seat's forfeits; empty without any.
std::string forfeit_breakdown(const std::map<std::string, int>& by_reason);

std::chrono::microseconds median(std::vector<std::chrono::microseconds> times);
std::chrono::microseconds maximum(const std::vector<std::chrono::microseconds>& times);

class GameStats : public GameObserver {
public:
    void on_move(int tick, int seat, const MoveReport& move) override;
    const SeatStats& seat(int seat) const { return seats_[seat - 1]; }

private:
    std::array<SeatStats, 2> seats_;
};

// The game's log: every forfeit (of a spent time bank, the first only: the rest of the game's are
// the same), and what each bot wrote to stderr, capped per bot per game, with control characters
// escaped (terminal_text.hpp), each of its lines marked "  | " under the line that introduces it.
class GameLog : public GameObserver {
public:
    GameLog(std::ostream& out, std::array<std::string, 2> names, std::size_t cap_per_bot = std::size_t{1} << 20);
    void on_move(int tick, int seat, const MoveReport& move) override;

private:
    std::ostream& out_;
    std::array<std::string, 2> names_;
    std::size_t cap_;
    std::array<std::size_t, 2> written_{};
    std::array<bool, 2> bank_spent_{};  // its time bank's forfeit is in the log
};

// Passes every event to each observer in turn.
class Observers : public GameObserver {
public:
    explicit Observers(std::vector<GameObserver*> list) : list_(std::move(list)) {}
    void on_move(int tick, int seat, const MoveReport& move) override {
        for (GameObserver* o : list_) o->on_move(tick, seat, move);
    }
    void on_generation(int generation, std::int64_t cells1, std::int64_t cells2) override {
        for (GameObserver* o : list_) o->on_generation(generation, cells1, cells2);
    }

private:
    std::vector<GameObserver*> list_;
};

}  // namespace gol::runner
