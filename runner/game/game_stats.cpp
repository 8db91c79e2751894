#include "runner/game/game_stats.hpp"
#include "runner/text/terminal_text.hpp"

#include <algorithm>
#include <string_view>
#include <utility>

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

MoveTiming& MoveTiming::operator+=(const MoveTiming& o) {
    moves += o.moves;
    wall_total += o.wall_total;
    wall_max = std::max(wall_max, o.wall_max);
    cpu_moves += o.cpu_moves;
    cpu_total += o.cpu_total;
    cpu_max = std::max(cpu_max, o.cpu_max);
    timeouts += o.timeouts;
    near_timeouts += o.near_timeouts;
    return *this;
}

MoveTiming move_timing(const SeatStats& seat, std::chrono::milliseconds time_limit) {
    MoveTiming t;
    t.moves = static_cast<int>(seat.move_times.size());
    for (auto m : seat.move_times) t.wall_total += m;
    t.wall_max = maximum(seat.move_times);
    t.cpu_moves = static_cast<int>(seat.cpu_times.size());
    for (auto c : seat.cpu_times) t.cpu_total += c;
    t.cpu_max = maximum(seat.cpu_times);
    t.timeouts = seat.timeouts;
    // Over 80% of the limit, compared in whole microseconds: elapsed * 5 > limit * 4.
    for (auto m : seat.in_time_move_times)
        if (m.count() * 5 > std::chrono::microseconds(time_limit).count() * 4) ++t.near_timeouts;
    return t;
}

void GameStats::on_move(int tick, int seat, const MoveReport& move) {
    SeatStats& s = seats_[seat - 1];
    // A move forfeited for a spent time bank never ran: it has no time to count.
    const bool ran = !move.forfeit || move.forfeit->kind != ForfeitKind::time_bank;
    if (ran) s.move_times.push_back(move.elapsed);
    if (move.cpu) s.cpu_times.push_back(*move.cpu);
    const bool timed_out = move.forfeit && move.forfeit->kind == ForfeitKind::timeout;
    s.timeouts += timed_out;
    if (ran && !timed_out && !move.startup) s.in_time_move_times.push_back(move.elapsed);
    if (move.forfeit) {
        ++s.forfeits_by_reason[std::string(name(move.forfeit->kind))];
        s.last_forfeit = std::string(name(move.forfeit->kind)) + ": " + move.forfeit->detail;
        if (move.forfeit->kind == ForfeitKind::exit_status || move.forfeit->kind == ForfeitKind::signal) {
            s.crash_stderr = last_lines(move.err, crash_stderr_lines);
            s.crash_tick = tick;
        }
    }
}

GameLog::GameLog(std::ostream& out, std::array<std::string, 2> names, std::size_t cap_per_bot)
    : out_(out), names_{terminal_line(names[0]), terminal_line(names[1])}, cap_(cap_per_bot) {}

// Forfeit details and stderr are the bots' own bytes: escaped, so that a log read on a terminal
// shows them rather than obeys them, and each line of stderr indented and marked under the
// runner's line that introduces it, so that none reads as the runner's (a bot that prints
// "tick 0 seat 2 (idle): forfeit timeout: ..."). The cap counts the escaped bytes, which are what
// the log holds, marks aside.
void GameLog::on_move(int tick, int seat, const MoveReport& move) {
    const std::string who = "tick " + std::to_string(tick) + " seat " + std::to_string(seat) + " (" +
                            names_[seat - 1] + ")";
    const bool repeated = move.forfeit && move.forfeit->kind == ForfeitKind::time_bank &&
                          std::exchange(bank_spent_[seat - 1], true);
    if (move.forfeit && !repeated)
        out_ << who << ": forfeit " << name(move.forfeit->kind) << ": " << terminal_line(move.forfeit->detail) << '\n';
    if (move.err.empty()) return;
    std::size_t& written = written_[seat - 1];
    if (written >= cap_) return;
    const std::string err = terminal_lines(move.err);
    const std::size_t room = cap_ - written;
    out_ << who << " stderr:\n" << bot_lines(std::string_view(err).substr(0, room), "  ");
    written += std::min(room, err.size());
    if (written >= cap_) out_ << "[" << names_[seat - 1] << ": stderr log capped at " << cap_ << " bytes]\n";
}

}  // namespace gol::runner
