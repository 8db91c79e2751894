#include "runner/game/time_bank.hpp"

#include <cstdio>
#include <string>

namespace gol::runner {

TimeBank::TimeBank(int seconds) : seconds_(seconds) {}

std::optional<Forfeit> TimeBank::spent(int seat) const {
    if (seconds_ <= 0 || left(seat)) return std::nullopt;
    const std::chrono::microseconds used = used_[static_cast<std::size_t>(seat - 1)];
    // The same words for every move it forfeits: what it used stops growing once it is spent,
    // so a replay lists the rest of its game as one run of forfeits.
    char took[32];
    std::snprintf(took, sizeof took, "%.1f s", std::chrono::duration<double>(used).count());
    return Forfeit{ForfeitKind::time_bank, "time bank of " + std::to_string(seconds_) + " s spent (its moves took " +
                                               took + "): the bot is not run again this game"};
}

std::optional<BankLeft> TimeBank::left(int seat) const {
    const std::chrono::microseconds used = used_[static_cast<std::size_t>(seat - 1)];
    const std::chrono::microseconds bank = std::chrono::seconds(seconds_);
    if (seconds_ <= 0 || used >= bank) return std::nullopt;
    return BankLeft{bank - used, seconds_};
}

void TimeBank::charge(int seat, std::chrono::microseconds elapsed) {
    if (seconds_ > 0) used_[static_cast<std::size_t>(seat - 1)] += elapsed;
}

}  // namespace gol::runner
