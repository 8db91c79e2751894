// The arena's lines about connections it closes before they play, bounded whatever a flood
// sends: per address and interval, the first few in full, then one line that counts the rest by
// reason, so a flood costs a line per address per interval, never a line per attempt.
#pragma once

#include <chrono>
#include <cstdio>
#include <map>
#include <optional>
#include <string>

namespace gol::runner {

// One line of the arena's log: "arena: " and `line`, flushed.
void arena_say(std::FILE* log, const std::string& line);

class RefusalLog {
public:
    using Clock = std::chrono::steady_clock;

    // Lines go to `log`, each "arena: " and the text. Per address and `interval`, `full_lines`
    // in full; at most `max_addresses` are counted apart in an interval, the rest together.
    RefusalLog(std::FILE* log, std::chrono::milliseconds interval, int full_lines, std::size_t max_addresses = 4096);

    // A connection from `address` closed: `line` says who and why, `reason` is the short words
    // the summary counts it under ("no identification in time").
    void closed(const std::string& address, const std::string& line, const std::string& reason,
                Clock::time_point now = Clock::now());
    // Writes the summary of each address whose interval has ended (all, with `all`).
    void flush(Clock::time_point now = Clock::now(), bool all = false);
    // When flush() next has something to write.
    std::optional<Clock::time_point> next_flush() const;

private:
    struct Interval {
        Clock::time_point start;
        int lines = 0;
        std::map<std::string, long> more;  // reason -> closed beyond the lines in full
    };

    std::FILE* log_;
    std::chrono::milliseconds interval_;
    int full_lines_;
    std::size_t max_addresses_;
    std::map<std::string, Interval> intervals_;  // by address
};

}  // namespace gol::runner
