// One client's TCP connection as its seat (tlv_seat.hpp) uses it, an arena client's or a local
// tlv bot's: non-blocking, every wait bounded by a deadline and woken by the arena's stop, the
// bytes read in small pieces so that a client that floods costs a bounded buffer.
#pragma once

#include "runner/tlv/tlv.hpp"
#include "runner/sys/stop_event.hpp"
#include "runner/sys/unique_fd.hpp"

#include <chrono>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace gol::runner {

// The connection is of no more use: closed by the client, broken, too slow, or its bytes broke
// the protocol. what() says which, for the log and the record.
struct ConnectionLost : std::runtime_error {
    using std::runtime_error::runtime_error;
};

class ClientConnection {
public:
    using Clock = std::chrono::steady_clock;

    // `fd` is a connected socket; it is made non-blocking, and TCP keepalive probes a peer that
    // falls silent, so that a connection whose other end is gone breaks within seconds
    // (keepalive_after, then `keepalive_probes` unanswered probes a second apart). `peer` names it in messages.
    ClientConnection(UniqueFd fd, std::string peer);
    static constexpr int keepalive_after_s = 1;
    static constexpr int keepalive_probes = 3;

    int fd() const { return fd_.get(); }
    const std::string& peer() const { return peer_; }

    // Writes all of `bytes` by `deadline`. Throws ConnectionLost when the client does not take
    // them in time or the connection broke, GameInterrupted once `stop` is.
    void send(std::string_view bytes, Clock::time_point deadline, const StopEvent& stop);

    // The next whole message, waiting for it until `deadline`. Throws ConnectionLost (closed,
    // broken, no whole message in time, or a ProtocolError's words), GameInterrupted once `stop` is.
    tlv::Message receive(Clock::time_point deadline, const StopEvent& stop);

    enum class Arrived { nothing, bytes, closed };
    // Takes in what has arrived, without waiting: `bytes` when any came. Throws ConnectionLost
    // when the connection broke.
    Arrived take_arrived();
    // Whether the connection still stands, asked without taking anything in: false when the
    // client closed it or it broke (a reset, keepalive's probes unanswered).
    bool alive() const;
    // How long since the peer's kernel last answered (data, or the ACK of a keepalive probe), as
    // TCP_INFO says; none for a socket that is not TCP.
    std::optional<std::chrono::milliseconds> silent_for() const;
    // The messages taken in so far (take_arrived), which a caller reads with next().
    tlv::Reader& reader() { return reader_; }

private:
    UniqueFd fd_;
    std::string peer_;
    tlv::Reader reader_;
};

// Waits until `fd` is ready for `events` or `deadline` passes; false at the deadline. Throws
// ConnectionLost when poll fails, GameInterrupted once `stop` is.
bool wait_for(int fd, short events, ClientConnection::Clock::time_point deadline, const StopEvent& stop);

// "the client closed the connection" with what it had sent of a message, if anything.
std::string closed_reason(const tlv::Reader& reader);

}  // namespace gol::runner
