// A live one-line progress display for a game on a terminal.
#pragma once

#include "runner/game/match.hpp"

#include <array>
#include <chrono>
#include <cstdio>
#include <string>

namespace gol::runner {

class ProgressLine : public GameObserver {
public:
    ProgressLine(std::FILE* out, std::array<std::string, 2> names, int generations);
    ~ProgressLine() override;
    void on_move(int tick, int seat, const MoveReport& move) override;
    void on_generation(int generation, std::int64_t cells1, std::int64_t cells2) override;

private:
    using Clock = std::chrono::steady_clock;
    std::FILE* out_;
    std::array<std::string, 2> names_;
    int generations_;
    std::array<int, 2> forfeits_{};
    long moves_ = 0;
    Clock::time_point start_ = Clock::now();
    Clock::time_point last_draw_{};
    bool drawn_ = false;
};

// "1h02m", "3m05s", "12s".
std::string format_duration(std::chrono::seconds s);

// "18.2 ms".
std::string format_ms(std::chrono::microseconds t);

}  // namespace gol::runner
