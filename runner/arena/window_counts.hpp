// Counts per key (an address, a name) over a window of time, for the arena's limits per address
// and per name (docs/arena.md, "Limits"): a key's count starts again a window after its first.
// What is remembered is bounded: beyond `max_keys`, the key whose window began first is forgotten.
#pragma once

#include <chrono>
#include <cstddef>
#include <map>
#include <string>

namespace gol::runner {

class WindowCounts {
public:
    using Clock = std::chrono::steady_clock;

    WindowCounts(std::chrono::milliseconds window, std::size_t max_keys = 65'536);

    // The count of `key` in its window now.
    int count(const std::string& key, Clock::time_point now = Clock::now()) const;
    void add(const std::string& key, Clock::time_point now = Clock::now());

private:
    struct Window {
        Clock::time_point start;
        int count = 0;
    };
    std::chrono::milliseconds window_;
    std::size_t max_keys_;
    std::map<std::string, Window> windows_;
};

}  // namespace gol::runner
