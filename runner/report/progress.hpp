// The runner's one progress display, and what duels and leagues show on it.
#pragma once

#include "runner/game/game_loop.hpp"
#include "runner/league/league.hpp"

#include <array>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>

namespace gol::runner {

// On a terminal: one live line, redrawn in place and kept narrower than the terminal, since a
// line that wraps leaves its first row behind at each redraw. Elsewhere (a pipe, a file): only
// the lines given to log(), so that a log shows progress without a line per redraw.
class ProgressDisplay {
public:
    // Live when `out` is a terminal, whose width is read again at each redraw.
    explicit ProgressDisplay(std::FILE* out);
    // Live or not as told, `columns` wide: for tests.
    ProgressDisplay(std::FILE* out, bool live, std::function<int()> columns);
    ProgressDisplay(const ProgressDisplay&) = delete;
    ProgressDisplay& operator=(const ProgressDisplay&) = delete;
    ~ProgressDisplay();  // clears the live line, leaving the terminal clean for what follows

    bool live() const { return live_; }
    int columns() const { return columns_(); }
    void show(std::string_view line);  // the live line now; nothing unless live
    void log(std::string_view line);   // one line for a log; nothing when live
    void clear();

private:
    std::FILE* out_;
    bool live_;
    std::function<int()> columns_;
    bool drawn_ = false;
    std::string drawn_line_;  // what the terminal shows, not drawn again
};

// What a duel's live line shows.
struct GameProgressState {
    int generation = 0, generations = 0;
    std::array<std::string, 2> names;  // escaped for a terminal
    std::array<std::int64_t, 2> cells{};
    std::array<int, 2> forfeits{};
    double moves_per_second = 0;
    std::chrono::seconds left{0};
};

// The duel's line for a terminal `columns` wide, at most columns - 1 of them (a redraw with \r
// of a line that wraps leaves its first row behind): the moves per second go first, then the
// words, then the names are cut; only a terminal too narrow for all that cuts the line itself.
std::string game_progress_line(const GameProgressState& state, int columns);

// A duel's live line: tick, cells, forfeits, moves per second and time left.
class GameProgress : public GameObserver {
public:
    GameProgress(std::FILE* out, std::array<std::string, 2> names, int generations);
    GameProgress(std::FILE* out, std::array<std::string, 2> names, int generations, bool live,
                 std::function<int()> columns);  // for tests
    void on_move(int tick, int seat, const MoveReport& move) override;
    void on_generation(int generation, std::int64_t cells1, std::int64_t cells2) override;

private:
    using Clock = std::chrono::steady_clock;
    ProgressDisplay display_;
    GameProgressState state_;
    long moves_ = 0;
    Clock::time_point start_ = Clock::now();
    Clock::time_point last_draw_{};  // long ago: the first generation draws
};

// A league's progress: live, the games done and running, the time left and the last game's result,
// redrawn each second; the time left is the elapsed time scaled by the generations left over
// those played, so it moves within a game too. In a pipe, a line per finished game (who played,
// the result, its start and length, n of N). It shows the counts of the last event, and counts
// nothing itself.
class LeagueProgressDisplay : public LeagueProgress {
public:
    explicit LeagueProgressDisplay(std::FILE* out);
    LeagueProgressDisplay(std::FILE* out, bool live, std::function<int()> columns);  // for tests

    void league_started(const LeagueCounts& counts) override;
    void games_added(const LeagueCounts& counts) override;
    void game_started(const LeagueCounts& counts) override;
    void game_finished(const FinishedGame& game) override;
    void game_abandoned(const LeagueCounts& counts) override;
    void work_done(const LeagueWork& work) override;
    void league_done() override;

private:
    using Clock = std::chrono::steady_clock;
    void draw(const LeagueCounts& counts);  // with mutex_ held
    void redraw(const LeagueCounts& counts);  // takes mutex_

    std::mutex mutex_;
    std::condition_variable_any tick_;
    ProgressDisplay display_;
    Clock::time_point start_ = Clock::now();
    LeagueCounts counts_;  // the last event's, for the redraws in between
    LeagueWork work_;      // in generations, for the time left
    std::string last_result_;  // the last game finished: "A vs B: A won by extinction after 3 generations"
    std::jthread redraws_;  // when live; last, so stopped and joined before the rest goes
};

}  // namespace gol::runner
