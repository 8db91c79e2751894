#include "runner/report/progress.hpp"
#include "runner/text/terminal_text.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdlib>

namespace gol::runner {

std::string format_duration(std::chrono::seconds s) {
    long t = s.count();
    char buf[32];
    if (t >= 3600) std::snprintf(buf, sizeof buf, "%ldh%02ldm", t / 3600, t / 60 % 60);
    else if (t >= 60) std::snprintf(buf, sizeof buf, "%ldm%02lds", t / 60, t % 60);
    else std::snprintf(buf, sizeof buf, "%lds", t);
    return buf;
}

std::string format_ms(std::chrono::microseconds t) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f ms", t.count() / 1000.0);
    return buf;
}

int terminal_columns(int fd) {
    winsize size{};
    if (::ioctl(fd, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) return size.ws_col;
    if (const char* columns = std::getenv("COLUMNS")) {
        char* end = nullptr;
        const long n = std::strtol(columns, &end, 10);
        if (end != columns && *end == '\0' && n > 0 && n <= 100000) return static_cast<int>(n);
    }
    return 80;
}

std::string fit_to_width(std::string_view line, int columns) {
    int used = 0;
    std::size_t end = 0;
    while (end < line.size()) {
        const auto lead = static_cast<unsigned char>(line[end]);
        std::size_t next = end + 1;
        while (next < line.size() && (static_cast<unsigned char>(line[next]) & 0xC0) == 0x80) ++next;
        const int width = lead < 0x80 ? 1 : 2;
        if (used + width > columns) break;
        used += width;
        end = next;
    }
    return std::string(line.substr(0, end));
}

ProgressDisplay::ProgressDisplay(std::FILE* out)
    : ProgressDisplay(out, ::isatty(::fileno(out)) == 1, [fd = ::fileno(out)] { return terminal_columns(fd); }) {}

ProgressDisplay::ProgressDisplay(std::FILE* out, bool live, std::function<int()> columns)
    : out_(out), live_(live), columns_(std::move(columns)) {}

ProgressDisplay::~ProgressDisplay() { clear(); }

void ProgressDisplay::show(std::string_view line) {
    if (!live_) return;
    // One column short of the width: some terminals wrap on writing the last column.
    std::string fitted = fit_to_width(line, columns_() - 1);
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

// The names are redrawn in place, so a control character in one would redraw more.
GameProgress::GameProgress(std::FILE* out, std::array<std::string, 2> names, int generations)
    : display_(out), names_{terminal_line(names[0]), terminal_line(names[1])}, generations_(generations) {}

void GameProgress::on_move(int, int seat, const MoveReport& move) {
    ++moves_;
    if (move.forfeit) ++forfeits_[seat - 1];
}

void GameProgress::on_generation(int generation, std::int64_t cells1, std::int64_t cells2) {
    if (!display_.live()) return;
    auto now = Clock::now();
    // Redrawing is cheap but not free; five times a second is enough for a person.
    if (now - last_draw_ < std::chrono::milliseconds(200)) return;
    last_draw_ = now;
    double secs = std::chrono::duration<double>(now - start_).count();
    double rate = secs > 0 ? moves_ / secs : 0;
    auto left = std::chrono::seconds(
        rate > 0 ? static_cast<long>(2.0 * (generations_ - generation) / rate) : 0);
    char line[512];
    std::snprintf(line, sizeof line, "tick %d/%d  %s %lld  %s %lld  forfeits %d/%d  %.0f moves/s  %s left", generation,
                  generations_, names_[0].c_str(), static_cast<long long>(cells1), names_[1].c_str(),
                  static_cast<long long>(cells2), forfeits_[0], forfeits_[1], rate, format_duration(left).c_str());
    display_.show(line);
}

LeagueProgressDisplay::LeagueProgressDisplay(std::FILE* out) : display_(out) {}

LeagueProgressDisplay::LeagueProgressDisplay(std::FILE* out, bool live, std::function<int()> columns)
    : display_(out, live, std::move(columns)) {}

void LeagueProgressDisplay::league_started(int stored, int total) {
    std::lock_guard lock(mutex_);
    start_ = Clock::now();
    reused_ = stored_ = stored;
    total_ = total;
    if (!display_.live()) return;
    draw();
    // Once a second for the clock; every event redraws at once besides.
    redraws_ = std::jthread([this](std::stop_token stop) {
        std::unique_lock lock(mutex_);
        while (!tick_.wait_for(lock, stop, std::chrono::seconds(1), [&stop] { return stop.stop_requested(); }))
            draw();
    });
}

void LeagueProgressDisplay::game_started() {
    std::lock_guard lock(mutex_);
    ++running_;
    draw();
}

void LeagueProgressDisplay::game_finished(const FinishedGame& game) {
    std::lock_guard lock(mutex_);
    --running_;
    stored_ = game.stored;
    const GameResult& r = game.result;
    const std::string after = " after " + std::to_string(r.generations) + (r.generations == 1 ? " generation" : " generations");
    const std::string outcome = r.verdict.winner_seat == 0
                                    ? "draw" + after
                                    : terminal_line(game.bots[r.verdict.winner_seat - 1]) + " won by " +
                                          std::string(name(r.verdict.reason)) + after;
    display_.log("league: " + std::to_string(game.stored) + "/" + std::to_string(game.total) + " " +
                 terminal_line(game.bots[0]) + " vs " + terminal_line(game.bots[1]) + ": " + outcome);
    draw();
}

void LeagueProgressDisplay::game_abandoned() {
    std::lock_guard lock(mutex_);
    --running_;
    draw();
}

void LeagueProgressDisplay::league_done() {
    // Not under mutex_: the redraw thread takes it to see the stop.
    redraws_.request_stop();
    if (redraws_.joinable()) redraws_.join();
    std::lock_guard lock(mutex_);
    display_.clear();
}

void LeagueProgressDisplay::draw() {
    if (!display_.live()) return;
    const auto elapsed = std::chrono::duration_cast<std::chrono::seconds>(Clock::now() - start_);
    const int played = stored_ - reused_;
    const std::string left = played > 0 ? "~" + format_duration(elapsed * (total_ - stored_) / played) : "?";
    display_.show("league: " + std::to_string(stored_) + "/" + std::to_string(total_) + " games done, " +
                  std::to_string(running_) + " running, elapsed " + format_duration(elapsed) + ", left " + left);
}

}  // namespace gol::runner
