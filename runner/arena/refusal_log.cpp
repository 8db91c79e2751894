#include "runner/arena/refusal_log.hpp"

namespace gol::runner {

namespace {

// Where an address beyond the count kept apart is counted.
const std::string kOtherAddresses = "other addresses";

}  // namespace

RefusalLog::RefusalLog(std::FILE* log, std::chrono::milliseconds interval, int full_lines, std::size_t max_addresses)
    : log_(log), interval_(interval), full_lines_(full_lines), max_addresses_(max_addresses) {}

void arena_say(std::FILE* log, const std::string& line) {
    std::fprintf(log, "arena: %s\n", line.c_str());
    std::fflush(log);
}

void RefusalLog::closed(const std::string& address, const std::string& line, const std::string& reason,
                        Clock::time_point now) {
    const bool apart = intervals_.contains(address) || intervals_.size() < max_addresses_;
    Interval& i = intervals_.try_emplace(apart ? address : kOtherAddresses, Interval{now, 0, {}}).first->second;
    if (apart && i.lines < full_lines_) {
        ++i.lines;
        arena_say(log_, line);
        return;
    }
    ++i.more[reason];
}

void RefusalLog::flush(Clock::time_point now, bool all) {
    for (auto it = intervals_.begin(); it != intervals_.end();) {
        if (!all && now < it->second.start + interval_) {
            ++it;
            continue;
        }
        long total = 0;
        std::string reasons;
        for (const auto& [reason, count] : it->second.more) {
            total += count;
            reasons += (reasons.empty() ? "" : ", ") + std::to_string(count) + " " + reason;
        }
        if (total > 0)
            arena_say(log_, it->first + ": " + std::to_string(total) + " more connections closed in " +
                                std::to_string(interval_.count()) + " ms without a line each: " + reasons);
        it = intervals_.erase(it);
    }
}

std::optional<RefusalLog::Clock::time_point> RefusalLog::next_flush() const {
    std::optional<Clock::time_point> next;
    for (const auto& [address, interval] : intervals_)
        if (!interval.more.empty() && (!next || interval.start + interval_ < *next)) next = interval.start + interval_;
    return next;
}

}  // namespace gol::runner
