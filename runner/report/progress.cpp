#include "runner/report/progress.hpp"
#include "runner/text/terminal_text.hpp"

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

// The line is redrawn in place with \r, so a control character in a name would redraw more.
ProgressLine::ProgressLine(std::FILE* out, std::array<std::string, 2> names, int generations)
    : out_(out), names_{terminal_line(names[0]), terminal_line(names[1])}, generations_(generations) {}

ProgressLine::~ProgressLine() {
    if (drawn_) std::fputs("\r\033[K", out_);  // leave the terminal clean for the summary
}

void ProgressLine::on_move(int, int seat, const MoveReport& move) {
    ++moves_;
    if (move.forfeit) ++forfeits_[seat - 1];
}

void ProgressLine::on_generation(int generation, std::int64_t cells1, std::int64_t cells2) {
    auto now = Clock::now();
    // Redrawing is cheap but not free; five times a second is enough for a person.
    if (drawn_ && now - last_draw_ < std::chrono::milliseconds(200)) return;
    last_draw_ = now;
    drawn_ = true;
    double secs = std::chrono::duration<double>(now - start_).count();
    double rate = secs > 0 ? moves_ / secs : 0;
    auto left = std::chrono::seconds(
        rate > 0 ? static_cast<long>(2.0 * (generations_ - generation) / rate) : 0);
    std::fprintf(out_, "\r\033[Ktick %d/%d  %s %lld  %s %lld  forfeits %d/%d  %.0f moves/s  %s left", generation,
                 generations_, names_[0].c_str(), static_cast<long long>(cells1), names_[1].c_str(),
                 static_cast<long long>(cells2), forfeits_[0], forfeits_[1], rate, format_duration(left).c_str());
    std::fflush(out_);
}

}  // namespace gol::runner
