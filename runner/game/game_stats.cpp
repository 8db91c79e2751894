#include "runner/game/game_stats.hpp"
#include "runner/text/terminal_text.hpp"

#include <algorithm>

namespace gol::runner {

std::string forfeit_breakdown(const std::map<std::string, int>& by_reason) {
    std::string out;
    for (const auto& [reason, n] : by_reason) out += (out.empty() ? "" : ", ") + reason + " " + std::to_string(n);
    return out;
}

std::chrono::microseconds median(std::vector<std::chrono::microseconds> times) {
    if (times.empty()) return {};
    auto mid = times.begin() + static_cast<std::ptrdiff_t>(times.size() / 2);
    std::nth_element(times.begin(), mid, times.end());
    return *mid;
}

std::chrono::microseconds maximum(const std::vector<std::chrono::microseconds>& times) {
    return times.empty() ? std::chrono::microseconds{} : *std::max_element(times.begin(), times.end());
}

void GameStats::on_move(int, int seat, const MoveReport& move) {
    SeatStats& s = seats_[seat - 1];
    s.move_times.push_back(move.elapsed);
    if (move.forfeit) {
        ++s.forfeits_by_reason[std::string(name(move.forfeit->kind))];
        s.last_forfeit = std::string(name(move.forfeit->kind)) + ": " + move.forfeit->detail;
    }
}

GameLog::GameLog(std::ostream& out, std::array<std::string, 2> names, std::size_t cap_per_bot)
    : out_(out), names_{terminal_line(names[0]), terminal_line(names[1])}, cap_(cap_per_bot) {}

// Forfeit details and stderr are the bots' own bytes: escaped, so that a log read on a terminal
// shows them rather than obeys them, and no line of the log is forged. The cap counts the
// escaped bytes, which are what the log holds.
void GameLog::on_move(int tick, int seat, const MoveReport& move) {
    const std::string who = "tick " + std::to_string(tick) + " seat " + std::to_string(seat) + " (" +
                            names_[seat - 1] + ")";
    if (move.forfeit)
        out_ << who << ": forfeit " << name(move.forfeit->kind) << ": " << terminal_line(move.forfeit->detail) << '\n';
    if (move.err.empty()) return;
    std::size_t& written = written_[seat - 1];
    if (written >= cap_) return;
    const std::string err = terminal_lines(move.err);
    std::size_t room = cap_ - written;
    out_ << who << " stderr:\n" << std::string_view(err).substr(0, room);
    if (err.size() > room || err.back() != '\n') out_ << '\n';
    written += std::min(room, err.size());
    if (written >= cap_) out_ << "[" << names_[seat - 1] << ": stderr log capped at " << cap_ << " bytes]\n";
}

}  // namespace gol::runner
