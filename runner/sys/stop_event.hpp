// A descriptor that becomes readable once a stop is requested, so that a thread waiting in
// poll() on sockets wakes at once for a SIGINT rather than at its next timeout.
#pragma once

#include "runner/sys/unique_fd.hpp"

#include <optional>
#include <stop_token>

namespace gol::runner {

class StopEvent {
public:
    // Throws std::system_error when no eventfd can be made.
    explicit StopEvent(std::stop_token stop);
    StopEvent(const StopEvent&) = delete;
    StopEvent& operator=(const StopEvent&) = delete;

    int fd() const { return fd_.get(); }
    bool stopped() const { return stop_.stop_requested(); }

private:
    // Declared before the callback, which writes to it, so it outlives the callback.
    UniqueFd fd_;
    std::stop_token stop_;
    struct Signal {
        int fd;
        void operator()() const;
    };
    std::optional<std::stop_callback<Signal>> callback_;
};

}  // namespace gol::runner
