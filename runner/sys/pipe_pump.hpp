// A child's standard streams from the runner's side: pipes made close-on-exec, and one loop that
// feeds stdin and drains stdout and stderr under their caps until a condition, the child's end
// or a deadline. Shared by one-shot runs (run_to_end in process.hpp) and the conversations that
// own a process for the game (bots/line_conversation.hpp, tlv/tlv_seat.hpp).
#pragma once

#include "runner/sys/unique_fd.hpp"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>

namespace gol::runner::pipes {

using Clock = std::chrono::steady_clock;

struct Pipe {
    UniqueFd read;
    UniqueFd write;
};

inline Pipe make_pipe() {
    int fds[2];
    // O_CLOEXEC: a pipe end leaking into a bot spawned concurrently by another thread would keep
    // this bot's stdout open and hide its EOF.
    if (::pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error(std::string("pipe2: ") + std::strerror(errno));
    return {UniqueFd(fds[0]), UniqueFd(fds[1])};
}

inline void set_nonblocking(int fd) { ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK); }

// The pipes of a running child and what has passed through them.
struct Streams {
    UniqueFd in, out, err;
    std::string_view to_write;  // what is left to send on stdin
    bool close_in_after = false;  // end stdin once to_write is sent (one-shot bots read to EOF)
    std::string out_buf, err_buf;
    std::size_t out_cap = 0, err_cap = 0;
    bool err_truncated = false;
};

enum class Pumped { done, child_exited, timed_out, stdout_overflow };

// Moves bytes between the child's pipes and `s` until `done()` holds, the child ends (when
// pidfd >= 0: a pidfd, or any descriptor that turns readable at the child's end), stdout passes
// its cap, or the deadline passes. stderr beyond its cap is read
// and dropped, so a bot flooding it never blocks.
template <class Done>
Pumped pump(Streams& s, int pidfd, Clock::time_point deadline, Done done) {
    std::array<char, 65536> buf;
    for (;;) {
        if (done()) return Pumped::done;
        // A slot each; poll() passes over a slot whose descriptor is -1 (closed, or nothing to write).
        std::array<pollfd, 4> fds{{{s.out.get(), POLLIN, 0},
                                   {s.err.get(), POLLIN, 0},
                                   {pidfd, POLLIN, 0},
                                   {s.to_write.empty() ? -1 : s.in.get(), POLLOUT, 0}}};
        if (std::all_of(fds.begin(), fds.end(), [](const pollfd& p) { return p.fd < 0; })) return Pumped::done;
        auto wait_ms = std::max<long>(0, std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now()).count());
        int ready = ::poll(fds.data(), fds.size(), static_cast<int>(wait_ms));
        if (ready < 0) {
            if (errno == EINTR) continue;
            throw std::runtime_error(std::string("poll: ") + std::strerror(errno));
        }
        if (ready == 0) return Pumped::timed_out;
        if (fds[0].revents) {
            ssize_t got = ::read(s.out.get(), buf.data(), buf.size());
            if (got > 0) {
                s.out_buf.append(buf.data(), static_cast<std::size_t>(got));
                if (s.out_buf.size() > s.out_cap) {
                    s.out_buf.resize(s.out_cap);
                    return Pumped::stdout_overflow;
                }
            } else if (got == 0 || (errno != EAGAIN && errno != EINTR)) {
                s.out.reset();
            }
        }
        if (fds[1].revents) {
            ssize_t got = ::read(s.err.get(), buf.data(), buf.size());
            if (got > 0) {
                std::size_t room = s.err_cap - std::min(s.err_cap, s.err_buf.size());
                std::size_t keep = std::min(room, static_cast<std::size_t>(got));
                s.err_buf.append(buf.data(), keep);
                if (keep < static_cast<std::size_t>(got)) s.err_truncated = true;
            } else if (got == 0 || (errno != EAGAIN && errno != EINTR)) {
                s.err.reset();
            }
        }
        if (fds[3].revents) {
            ssize_t put = ::write(s.in.get(), s.to_write.data(), s.to_write.size());
            if (put > 0) s.to_write.remove_prefix(static_cast<std::size_t>(put));
            // A bot that closes stdin without reading it all is its own business.
            else if (errno != EAGAIN && errno != EINTR) s.to_write = {};
            if (s.to_write.empty() && s.close_in_after) s.in.reset();
        }
        // What it wrote just before it ended may be what was waited for (a reply line).
        if (fds[2].revents) return done() ? Pumped::done : Pumped::child_exited;
        // Checked after the events too: a child that never stops writing must still time out.
        if (Clock::now() >= deadline) return done() ? Pumped::done : Pumped::timed_out;
    }
}

}  // namespace gol::runner::pipes
