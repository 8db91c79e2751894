#include "runner/tlv/connection.hpp"

#include "runner/game/game_loop.hpp"

#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>

namespace gol::runner {

namespace {

// Read in pieces no larger than this: a flood waits in the kernel's buffer, not in ours.
constexpr std::size_t kReadPiece = 512;

}  // namespace

bool wait_for(int fd, short events, ClientConnection::Clock::time_point deadline, const StopEvent& stop) {
    for (;;) {
        if (stop.stopped()) throw GameInterrupted();
        const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - ClientConnection::Clock::now());
        if (left.count() <= 0) return false;
        std::array<pollfd, 2> fds{{{fd, events, 0}, {stop.fd(), POLLIN, 0}}};
        const int n = ::poll(fds.data(), fds.size(), static_cast<int>(std::min<long long>(left.count(), 60'000)));
        if (n < 0 && errno != EINTR) throw ConnectionLost(std::string("poll: ") + std::strerror(errno));
        if (fds[1].revents) throw GameInterrupted();
        if (n > 0 && fds[0].revents) return true;
    }
}

std::string closed_reason(const tlv::Reader& reader) {
    return reader.held() == 0 ? "the client closed the connection"
                              : "the client closed the connection in the middle of a message (" +
                                    std::to_string(reader.held()) + " bytes of it sent)";
}

ClientConnection::ClientConnection(UniqueFd fd, std::string peer) : fd_(std::move(fd)), peer_(std::move(peer)) {
    ::fcntl(fd_.get(), F_SETFL, ::fcntl(fd_.get(), F_GETFL) | O_NONBLOCK);
    // The server writes M, G and T as small sends one after another; with Nagle's algorithm the
    // T would wait for the client's delayed ACK of the G (about 40 ms a turn).
    const int one = 1;
    ::setsockopt(fd_.get(), IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    const int idle = keepalive_after_s, probes = keepalive_probes;
    ::setsockopt(fd_.get(), SOL_SOCKET, SO_KEEPALIVE, &one, sizeof one);
    ::setsockopt(fd_.get(), IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof idle);
    ::setsockopt(fd_.get(), IPPROTO_TCP, TCP_KEEPINTVL, &one, sizeof one);
    ::setsockopt(fd_.get(), IPPROTO_TCP, TCP_KEEPCNT, &probes, sizeof probes);
}

bool ClientConnection::alive() const {
    int error = 0;
    socklen_t len = sizeof error;
    if (::getsockopt(fd_.get(), SOL_SOCKET, SO_ERROR, &error, &len) != 0 || error != 0) return false;
    char byte;
    const ssize_t n = ::recv(fd_.get(), &byte, 1, MSG_PEEK | MSG_DONTWAIT);
    return n > 0 || (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR));
}

std::optional<std::chrono::milliseconds> ClientConnection::silent_for() const {
    tcp_info info{};
    socklen_t len = sizeof info;
    if (::getsockopt(fd_.get(), IPPROTO_TCP, TCP_INFO, &info, &len) != 0) return std::nullopt;
    return std::chrono::milliseconds(std::min(info.tcpi_last_ack_recv, info.tcpi_last_data_recv));
}

void ClientConnection::send(std::string_view bytes, Clock::time_point deadline, const StopEvent& stop) {
    while (!bytes.empty()) {
        const ssize_t n = ::send(fd_.get(), bytes.data(), bytes.size(), MSG_NOSIGNAL);
        if (n > 0) {
            bytes.remove_prefix(static_cast<std::size_t>(n));
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
            throw ConnectionLost(errno == EPIPE || errno == ECONNRESET ? "the client closed the connection"
                                                                       : std::string("send: ") + std::strerror(errno));
        if (!wait_for(fd_.get(), POLLOUT, deadline, stop))
            throw ConnectionLost("the client did not read the server's messages in time");
    }
}

ClientConnection::Arrived ClientConnection::take_arrived() {
    std::array<char, kReadPiece> piece;
    const ssize_t n = ::recv(fd_.get(), piece.data(), piece.size(), 0);
    if (n > 0) {
        reader_.feed(std::string_view(piece.data(), static_cast<std::size_t>(n)));
        return Arrived::bytes;
    }
    if (n == 0) return Arrived::closed;
    if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) return Arrived::nothing;
    if (errno == ECONNRESET) return Arrived::closed;
    if (errno == ETIMEDOUT) throw ConnectionLost("the client's end stopped answering (TCP keepalive's probes went unanswered)");
    throw ConnectionLost(std::string("recv: ") + std::strerror(errno));
}

tlv::Message ClientConnection::receive(Clock::time_point deadline, const StopEvent& stop) {
    try {
        for (;;) {
            if (std::optional<tlv::Message> m = reader_.next()) return std::move(*m);
            switch (take_arrived()) {
                case Arrived::bytes: continue;
                case Arrived::closed: throw ConnectionLost(closed_reason(reader_));
                case Arrived::nothing: break;
            }
            if (!wait_for(fd_.get(), POLLIN, deadline, stop))
                throw ConnectionLost(reader_.held() == 0 ? "no message in time"
                                                         : "a message cut short: " + std::to_string(reader_.held()) +
                                                               " bytes of it in time, the rest not");
        }
    } catch (const tlv::ProtocolError& e) {
        throw ConnectionLost(std::string("it sent ") + e.what());
    }
}

}  // namespace gol::runner
