// Ctrl-C and SIGTERM as an orderly stop: running bots are killed at once, work in flight is
// abandoned, and what was already stored stays stored. A runner that has not finished
// kStopGraceSeconds after the signal, or gets a second one, exits there and then with 128 + the
// signal, wherever it is (a discovery that waits on a file, say).
#pragma once

#include "runner/sys/process.hpp"

#include <atomic>
#include <pthread.h>
#include <stop_token>
#include <thread>

namespace gol::runner {

inline constexpr int kStopGraceSeconds = 5;

class InterruptWatcher {
public:
    // Blocks SIGINT and SIGTERM in the calling thread, so create this before any other thread:
    // threads inherit the mask and the watcher alone receives them.
    explicit InterruptWatcher(ProcessRegistry& registry);
    ~InterruptWatcher();
    InterruptWatcher(const InterruptWatcher&) = delete;
    InterruptWatcher& operator=(const InterruptWatcher&) = delete;

    std::stop_token token() const { return stop_.get_token(); }
    // The signal that stopped us, or 0.
    int signal() const { return signal_.load(); }

private:
    ProcessRegistry& registry_;
    std::stop_source stop_;
    std::atomic<int> signal_{0};
    std::atomic<bool> closing_{false};
    std::thread thread_;
};

}  // namespace gol::runner
