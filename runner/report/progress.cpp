#include "runner/report/progress.hpp"
#include "runner/text/count_text.hpp"
#include "runner/text/terminal_text.hpp"
#include "runner/text/text_width.hpp"
#include "runner/text/time_text.hpp"

#include <unistd.h>

#include <algorithm>

namespace gol::runner {

ProgressDisplay::ProgressDisplay(std::FILE* out)
    : ProgressDisplay(out, ::isatty(::fileno(out)) == 1, [fd = ::fileno(out)] { return terminal_columns(fd); }) {}

ProgressDisplay::ProgressDisplay(std::FILE* out, bool live, std::function<int()> columns)
    : out_(out), live_(live), columns_(std::move(columns)) {}

ProgressDisplay::~ProgressDisplay() { clear(); }

void ProgressDisplay::show(std::string_view line) {
    if (!live_) return;
    // One column short of the width: some terminals wrap on writing the last column.
    std::string fitted = cut_text(line, columns_() - 1);
    if (drawn_ && fitted == drawn_line_) return;
    std::fprintf(out_, "\r\033[K%s", fitted.c_str());
    std::fflush(out_);
    drawn_ = true;
    drawn_line_ = std::move(fitted);
}

void ProgressDisplay::log(std::string_view line) {
    if (live_) return;
    std::fprintf(out_, "%.*s\n", static_cast<int>(line.size()), line.data());
    std::fflush(out_);
}

void ProgressDisplay::clear() {
    if (!drawn_) return;
    std::fputs("\r\033[K", out_);
    std::fflush(out_);
    drawn_ = false;
}

std::string game_progress_line(const GameProgressState& s, int columns) {
    const int width = columns - 1;
    auto fits = [width](const std::string& line) { return text_width(line) <= width; };
    const std::string ticks = std::to_string(s.generation) + "/" + std::to_string(s.generations);
    const std::string forfeits = std::to_string(s.forfeits[0]) + "/" + std::to_string(s.forfeits[1]);
    const std::array<std::string, 2> cells = {std::to_string(s.cells[0]), std::to_string(s.cells[1])};
    const std::string left = format_duration(s.left);
    char rate[32];
    std::snprintf(rate, sizeof rate, "%.0f", s.moves_per_second);
    // From the fullest to the most compact.
    struct Layout {
        bool words, rate, left;
    };
    constexpr std::array<Layout, 4> layouts = {Layout{true, true, true}, Layout{true, false, true},
                                               Layout{false, false, true}, Layout{false, false, false}};
    auto line_of = [&](const Layout& l, const std::string& a, const std::string& b) {
        const std::string gap = l.words ? "  " : " ";
        std::string line = (l.words ? "tick " : "") + ticks + gap + a + " " + cells[0] + gap + b + " " + cells[1] +
                           gap + (l.words ? "forfeits " : "f") + forfeits;
        if (l.rate) line += gap + rate + " moves/s";
        if (l.left) line += gap + left + (l.words ? " left" : "");
        return line;
    };
    for (const Layout& layout : layouts)
        if (std::string line = line_of(layout, s.names[0], s.names[1]); fits(line)) return line;
    // Cut names share what the rest leaves: each half, or more where the other needs less. A
    // more compact layout is worth names that still say which bot is which.
    for (const int shortest : {10, 4})
        for (const Layout& layout : layouts) {
            const int room = width - static_cast<int>(line_of(layout, "", "").size());
            if (room < 2 * shortest) continue;
            const int second_needs = static_cast<int>(cut_text(s.names[1], room).size());
            const std::string a = cut_text(s.names[0], std::max(room / 2, room - second_needs), "~");
            const std::string b = cut_text(s.names[1], room - static_cast<int>(a.size()), "~");
            if (std::string line = line_of(layout, a, b); fits(line)) return line;
        }
    return cut_text(line_of(layouts.back(), s.names[0], s.names[1]), width);
}

// The names are redrawn in place, so a control character in one would redraw more.
GameProgress::GameProgress(std::FILE* out, std::array<std::string, 2> names, int generations)
    : display_(out), state_{0, generations, {terminal_line(names[0]), terminal_line(names[1])}} {}

GameProgress::GameProgress(std::FILE* out, std::array<std::string, 2> names, int generations, bool live,
                           std::function<int()> columns)
    : display_(out, live, std::move(columns)),
      state_{0, generations, {terminal_line(names[0]), terminal_line(names[1])}} {}

void GameProgress::on_move(int, int seat, const MoveReport& move) {
    ++moves_;
    if (move.forfeit) ++state_.forfeits[seat - 1];
}

void GameProgress::on_generation(int generation, std::int64_t cells1, std::int64_t cells2) {
    if (!display_.live()) return;
    auto now = Clock::now();
    // Redrawing is cheap but not free; five times a second is enough for a person.
    if (now - last_draw_ < std::chrono::milliseconds(200)) return;
    last_draw_ = now;
    double secs = std::chrono::duration<double>(now - start_).count();
    state_.moves_per_second = secs > 0 ? moves_ / secs : 0;
    state_.left = std::chrono::seconds(state_.moves_per_second > 0
                                           ? static_cast<long>(2.0 * (state_.generations - generation) / state_.moves_per_second)
                                           : 0);
    state_.generation = generation;
    state_.cells = {cells1, cells2};
    display_.show(game_progress_line(state_, display_.columns()));
}

LeagueProgressDisplay::LeagueProgressDisplay(std::FILE* out) : display_(out) {}

LeagueProgressDisplay::LeagueProgressDisplay(std::FILE* out, bool live, std::function<int()> columns)
    : display_(out, live, std::move(columns)) {}

void LeagueProgressDisplay::league_started(const LeagueCounts& counts) {
    std::lock_guard lock(mutex_);
    start_ = Clock::now();
    draw(counts);
    if (!display_.live()) return;
    // Once a second for the clock; every event redraws at once besides.
    redraws_ = std::jthread([this](std::stop_token stop) {
        std::unique_lock lock(mutex_);
        while (!tick_.wait_for(lock, stop, std::chrono::seconds(1), [&stop] { return stop.stop_requested(); }))
            draw(counts_);
    });
}

void LeagueProgressDisplay::redraw(const LeagueCounts& counts) {
    std::lock_guard lock(mutex_);
    draw(counts);
}

void LeagueProgressDisplay::games_added(const LeagueCounts& counts) { redraw(counts); }

void LeagueProgressDisplay::game_started(const LeagueCounts& counts) { redraw(counts); }

void LeagueProgressDisplay::game_finished(const FinishedGame& game) {
    std::lock_guard lock(mutex_);
    const GameResult& r = game.result;
    const std::string after = " after " + count_text(r.generations, "generation");
    const std::string outcome = r.verdict.winner_seat == 0
                                    ? "draw" + after
                                    : terminal_line(game.bots[r.verdict.winner_seat - 1]) + " won by " +
                                          std::string(name(r.verdict.reason)) + after;
    last_result_ = terminal_line(game.bots[0]) + " vs " + terminal_line(game.bots[1]) + ": " + outcome;
    display_.log("league: " + std::to_string(game.counts.stored) + "/" + std::to_string(game.counts.total) + " " +
                 last_result_ + " (started " + game.when.started + ", took " +
                 format_duration(std::chrono::duration_cast<std::chrono::seconds>(game.when.duration)) + ")");
    draw(game.counts);
}

void LeagueProgressDisplay::game_abandoned(const LeagueCounts& counts) { redraw(counts); }

void LeagueProgressDisplay::work_done(const LeagueWork& work) {
    std::lock_guard lock(mutex_);
    work_ = work;  // drawn by the next redraw: a generation is too often for a line
}

void LeagueProgressDisplay::league_done() {
    // Not under mutex_: the redraw thread takes it to see the stop.
    redraws_.request_stop();
    if (redraws_.joinable()) redraws_.join();
    std::lock_guard lock(mutex_);
    display_.clear();
}

void LeagueProgressDisplay::draw(const LeagueCounts& counts) {
    counts_ = counts;
    if (!display_.live()) return;
    const auto elapsed = std::chrono::duration_cast<std::chrono::seconds>(Clock::now() - start_);
    // Unknown until a generation has been played.
    const std::string left =
        work_.done > 0 ? "~" + format_duration(std::chrono::seconds(static_cast<long>(
                                   static_cast<double>(elapsed.count()) * static_cast<double>(work_.left) /
                                   static_cast<double>(work_.done))))
                       : "?";
    display_.show("league: " + std::to_string(counts.stored) + "/" + std::to_string(counts.total) + " games done, " +
                  std::to_string(counts.running) + " running, elapsed " + format_duration(elapsed) + ", left " + left +
                  (last_result_.empty() ? "" : "; last: " + last_result_));
}

}  // namespace gol::runner
