#include "runner/arena/window_counts.hpp"

#include <algorithm>

namespace gol::runner {

WindowCounts::WindowCounts(std::chrono::milliseconds window, std::size_t max_keys) : window_(window), max_keys_(max_keys) {}

int WindowCounts::count(const std::string& key, Clock::time_point now) const {
    const auto it = windows_.find(key);
    return it == windows_.end() || now >= it->second.start + window_ ? 0 : it->second.count;
}

void WindowCounts::add(const std::string& key, Clock::time_point now) {
    if (!windows_.contains(key) && windows_.size() >= max_keys_)
        windows_.erase(std::min_element(windows_.begin(), windows_.end(),
                                        [](const auto& a, const auto& b) { return a.second.start < b.second.start; }));
    Window& w = windows_[key];
    if (w.count == 0 || now >= w.start + window_) w = Window{now, 0};
    ++w.count;
}

}  // namespace gol::runner
