// A time budget per game for each seat (`--time-bank`, docs/rules.md): the game loop tells each
// move what is left of its seat's bank, the most it may take, and charges the move's wall-clock
// time to the seat; once a seat's bank is spent its later moves are forfeited without running
// its bot.
#pragma once

#include "runner/game/move.hpp"

#include <array>
#include <chrono>
#include <optional>

namespace gol::runner {

class TimeBank {
public:
    // `seconds` each seat may spend on its moves in one game; 0: no bank, nothing is ever spent.
    explicit TimeBank(int seconds);

    // The forfeit for `seat`'s (1 or 2) next move when its bank is spent (what it spent reached
    // the bank, exactly the bank included); none while some of it is left, or without a bank.
    std::optional<Forfeit> spent(int seat) const;
    // What is left of `seat`'s bank for its next move; none without a bank or once it is spent.
    std::optional<BankLeft> left(int seat) const;
    // Counts a move that ran against `seat`'s bank: its whole time, a forfeited move's too.
    void charge(int seat, std::chrono::microseconds elapsed);

private:
    int seconds_;
    std::array<std::chrono::microseconds, 2> used_{};
};

}  // namespace gol::runner
