// The load of scripts/bench/arena: CLIENTS keyed clients and a slowloris of FLOOD connections
// against `runner serve` on 127.0.0.1, in one process of two threads, each one epoll loop of
// non-blocking sockets (the slowloris's thread only when FLOOD > 0).
//
//   load_client PORT CLIENTS GAMES DURATION FLOOD [leave]
//
// Client i (from 0) connects from 127.0.(1 + i / 250).(1 + i % 250), identifies as
// "bench{i+1}/load key{i+1}", answers each T at once with an empty M, and plays GAMES games or
// until DURATION seconds have passed; with `leave` it leaves at each game's S (filling a store).
// A turn's latency is the time from the return of the write of its M to the return of the read
// that brought the next T: the timestamp is taken at the read, not when the message is handled
// after the others the loop got with it, as a client of its own would see it. The slowloris's
// connection j comes from 127.0.(2 + j / 2500).(1 + j / 10 % 250), ten an address, sends one
// byte of an identification and nothing more, and is replaced as soon as the arena closes it
// (50 ms after a failed connect), until DURATION has passed; it starts 1 s before the clients.
// Prints one line: games, games a second, turn latency p50 and p99 in ms, keyed clients refused
// (closed before their S), turns measured, the process's CPU seconds, the clients' seconds.
#include "runner/sys/unique_fd.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

namespace {

using gol::runner::UniqueFd;
using Clock = std::chrono::steady_clock;  // CLOCK_MONOTONIC
using namespace std::chrono_literals;

constexpr int per_block = 250;     // addresses used of each 127.0.B.0/24: .1 to .250
constexpr int max_clients = 2500;  // 127.0.1.0/24 to 127.0.10.0/24
constexpr int max_flood = 5000;    // ten an address: 127.0.2.1 to 127.0.3.250
constexpr int max_events = 256;
constexpr auto retry_after = 50ms;  // after a slowloris connection failed

[[noreturn]] void fail(const char* what) { throw std::system_error(errno, std::generic_category(), what); }

// 127.0.(block + n / 250).(1 + n % 250): a loopback address, this machine's whatever n is within
// the bounds main checks.
in_addr address(int block, int n) {
    return in_addr{htonl((127u << 24) | static_cast<std::uint32_t>((block + n / per_block) << 8) |
                         static_cast<std::uint32_t>(1 + n % per_block))};
}

class Epoll {
public:
    Epoll() : fd_(epoll_create1(EPOLL_CLOEXEC)) {
        if (!fd_) fail("epoll_create1");
    }
    void add(int fd, std::uint32_t events, std::uint64_t tag) { control(EPOLL_CTL_ADD, fd, events, tag); }
    void change(int fd, std::uint32_t events, std::uint64_t tag) { control(EPOLL_CTL_MOD, fd, events, tag); }
    // The ready ones, waiting at most `timeout` (interrupted: none).
    std::span<epoll_event> wait(std::chrono::milliseconds timeout) {
        const int n = epoll_wait(fd_.get(), events_, max_events, static_cast<int>(timeout.count()));
        if (n < 0 && errno != EINTR) fail("epoll_wait");
        return {events_, static_cast<std::size_t>(std::max(n, 0))};
    }

private:
    void control(int op, int fd, std::uint32_t events, std::uint64_t tag) {
        epoll_event event{};
        event.events = events;
        event.data.u64 = tag;
        if (epoll_ctl(fd_.get(), op, fd, &event) != 0) fail("epoll_ctl");
    }
    UniqueFd fd_;
    epoll_event events_[max_events];
};

// A non-blocking TCP connection from `source` to 127.0.0.1:port, begun: it may still be
// connecting (wait for it to be writable, then see connected()). None if it failed at once.
UniqueFd connect_from(in_addr source, std::uint16_t port) {
    UniqueFd fd(socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
    if (!fd) fail("socket");
    sockaddr_in from{};
    from.sin_family = AF_INET;
    from.sin_addr = source;
    sockaddr_in to{};
    to.sin_family = AF_INET;
    to.sin_port = htons(port);
    to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (bind(fd.get(), reinterpret_cast<const sockaddr*>(&from), sizeof from) != 0) return {};
    if (connect(fd.get(), reinterpret_cast<const sockaddr*>(&to), sizeof to) != 0 && errno != EINPROGRESS)
        return {};
    const int one = 1;
    setsockopt(fd.get(), IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return fd;
}

bool connected(int fd) {
    int error = 0;
    socklen_t size = sizeof error;
    return getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &size) == 0 && error == 0;
}

struct Totals {
    std::vector<double> latencies;  // seconds
    long refused = 0;
    long played = 0;  // each game counted by both its clients
};

// The keyed clients, on the calling thread, until each has played its games or the deadline
// has passed and no connection is open; none waits for a message longer than 30 s past the
// deadline (at least 1 s).
class Clients {
public:
    Clients(std::uint16_t port, int count, int games, Clock::time_point deadline, bool leave)
        : port_(port), deadline_(deadline), leave_(leave), clients_(static_cast<std::size_t>(count)) {
        for (int i = 0; i < count; ++i) {
            Client& c = clients_[static_cast<std::size_t>(i)];
            c.games_left = games;
            const std::string text = "bench" + std::to_string(i + 1) + "/load key" + std::to_string(i + 1);
            c.identification = std::string{'I', static_cast<char>(text.size())} + text;
        }
    }

    Totals run() {
        for (std::size_t i = 0; i < clients_.size(); ++i) begin_game(i);
        auto next_sweep = Clock::now() + 100ms;
        while (open_ > 0) {
            for (const epoll_event& event : epoll_.wait(100ms)) handle(event.data.u64, event.events);
            if (const auto now = Clock::now(); now >= next_sweep) {
                next_sweep = now + 100ms;
                for (std::size_t i = 0; i < clients_.size(); ++i)
                    if (clients_[i].fd && now >= clients_[i].expires) end_game(i);  // no message in time
            }
        }
        return std::move(totals_);
    }

private:
    struct Client {
        int games_left = 0;
        std::string identification;  // the I message
        UniqueFd fd;
        bool connecting = false;
        bool writing = false;  // waiting for room to write `out`
        bool started = false;
        std::string in;   // bytes read, not yet whole messages
        std::string out;  // bytes not written yet
        std::optional<Clock::time_point> sent_at;  // the return of the last M's write
        Clock::time_point expires;
    };

    Clock::time_point expiry(Clock::time_point now) const { return std::max(now + 1s, deadline_ + 30s); }

    void begin_game(std::size_t i) {
        Client& c = clients_[i];
        while (c.games_left > 0 && Clock::now() < deadline_) {
            --c.games_left;
            c.fd = connect_from(address(1, static_cast<int>(i)), port_);
            if (!c.fd) {
                ++totals_.refused;
                continue;
            }
            ++open_;
            c.connecting = c.writing = true;
            c.started = false;
            c.in.clear();
            c.out = c.identification;
            c.sent_at.reset();
            c.expires = expiry(Clock::now());
            epoll_.add(c.fd.get(), EPOLLIN | EPOLLOUT, i);
            return;
        }
    }

    // A game's end, played or not; the client's next game begins.
    void end_game(std::size_t i) {
        clients_[i].fd.reset();
        --open_;
        begin_game(i);
    }

    void played(std::size_t i) {
        ++totals_.played;
        end_game(i);
    }

    // Closed or failed: refused if before the game's S.
    void lost(std::size_t i) {
        if (!clients_[i].started) ++totals_.refused;
        end_game(i);
    }

    void handle(std::size_t i, std::uint32_t events) {
        Client& c = clients_[i];
        if (c.connecting) {
            if (!connected(c.fd.get())) return lost(i);
            c.connecting = false;
        }
        if (!flush(i)) return lost(i);
        if (!(events & (EPOLLIN | EPOLLHUP | EPOLLERR))) return;
        char buffer[4096];
        const ssize_t got = read(c.fd.get(), buffer, sizeof buffer);
        const auto now = Clock::now();  // the read's return: when this client has the T
        if (got < 0 && (errno == EAGAIN || errno == EINTR)) return;
        if (got <= 0) return lost(i);
        c.in.append(buffer, static_cast<std::size_t>(got));
        c.expires = expiry(now);
        std::size_t at = 0;  // the next message's type byte; its length byte follows
        while (c.in.size() - at >= 2) {
            const std::size_t size = 2 + static_cast<unsigned char>(c.in[at + 1]);
            if (c.in.size() - at < size) break;
            const char type = c.in[at];
            at += size;
            if (type == 'S') {
                c.started = true;
                if (leave_) return played(i);
            } else if (type == 'T') {
                if (c.sent_at) totals_.latencies.push_back(std::chrono::duration<double>(now - *c.sent_at).count());
                c.out += "M";
                c.out += '\0';  // a pass
                if (!flush(i)) return lost(i);
                c.sent_at = Clock::now();
            } else if (type == 'B') {
                return played(i);
            }
        }
        c.in.erase(0, at);
    }

    // Writes what it can of the client's `out`, and waits for room for the rest: false if the
    // connection failed.
    bool flush(std::size_t i) {
        Client& c = clients_[i];
        if (!c.out.empty()) {
            const ssize_t n = send(c.fd.get(), c.out.data(), c.out.size(), MSG_NOSIGNAL);
            if (n < 0 && errno != EAGAIN && errno != EINTR) return false;
            c.out.erase(0, static_cast<std::size_t>(std::max<ssize_t>(n, 0)));
        }
        if (c.writing != !c.out.empty()) {
            c.writing = !c.out.empty();
            epoll_.change(c.fd.get(), EPOLLIN | (c.writing ? EPOLLOUT : 0u), i);
        }
        return true;
    }

    std::uint16_t port_;
    Clock::time_point deadline_;
    bool leave_;
    std::vector<Client> clients_;
    Epoll epoll_;
    int open_ = 0;
    Totals totals_;
};

// The slowloris, on the calling thread, until the deadline.
class Slowloris {
public:
    Slowloris(std::uint16_t port, int count, Clock::time_point deadline)
        : port_(port), deadline_(deadline), connections_(static_cast<std::size_t>(count)) {}

    void run() {
        for (std::size_t j = 0; j < connections_.size(); ++j) open(j);
        auto next_sweep = Clock::now() + 10ms;
        for (auto now = Clock::now(); now < deadline_; now = Clock::now()) {
            const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline_ - now);
            for (const epoll_event& event : epoll_.wait(std::min<std::chrono::milliseconds>(left, 10ms)))
                handle(event.data.u64);
            if (now = Clock::now(); now >= next_sweep) {
                next_sweep = now + 10ms;
                for (std::size_t j = 0; j < connections_.size(); ++j)
                    if (!connections_[j].fd && now >= connections_[j].retry_at) open(j);
            }
        }
    }

private:
    struct Connection {
        UniqueFd fd;
        bool connecting = false;
        Clock::time_point retry_at;  // when it has no connection
    };

    void open(std::size_t j) {
        Connection& c = connections_[j];
        c.fd = connect_from(address(2, static_cast<int>(j / 10)), port_);
        if (!c.fd) return retry(j);
        c.connecting = true;
        epoll_.add(c.fd.get(), EPOLLIN | EPOLLOUT, j);
    }

    void retry(std::size_t j) {
        connections_[j].fd.reset();
        connections_[j].retry_at = Clock::now() + retry_after;
    }

    void handle(std::size_t j) {
        Connection& c = connections_[j];
        if (c.connecting) {
            // One byte of a 32-byte identification's length, and nothing more.
            if (!connected(c.fd.get()) || send(c.fd.get(), "I\x20", 2, MSG_NOSIGNAL) != 2) return retry(j);
            c.connecting = false;
            epoll_.change(c.fd.get(), EPOLLIN, j);
            return;
        }
        char byte;
        const ssize_t got = read(c.fd.get(), &byte, 1);
        if (got < 0 && (errno == EAGAIN || errno == EINTR)) return;
        if (got < 0) return retry(j);
        open(j);  // the arena closed it (or said something): the next one at once
    }

    std::uint16_t port_;
    Clock::time_point deadline_;
    std::vector<Connection> connections_;
    Epoll epoll_;
};

long argument(const char* text, long low, long high, const char* name) {
    char* end = nullptr;
    errno = 0;
    const long value = std::strtol(text, &end, 10);
    if (errno != 0 || end == text || *end != '\0' || value < low || value > high)
        throw std::invalid_argument(std::string(name) + " must be a number from " + std::to_string(low) + " to " +
                                    std::to_string(high) + ", not '" + text + "'");
    return value;
}

}  // namespace

int main(int argc, char** argv) try {
    const bool leave = argc == 7 && std::strcmp(argv[6], "leave") == 0;
    if (argc != 6 && !leave) {
        std::fprintf(stderr, "usage: load_client PORT CLIENTS GAMES DURATION FLOOD [leave]\n");
        return 2;
    }
    const auto port = static_cast<std::uint16_t>(argument(argv[1], 1, 65535, "PORT"));
    const auto clients = static_cast<int>(argument(argv[2], 1, max_clients, "CLIENTS"));
    const auto games = static_cast<int>(argument(argv[3], 0, 100000, "GAMES"));
    const std::chrono::seconds duration(argument(argv[4], 1, 3600, "DURATION"));
    const auto flood = static_cast<int>(argument(argv[5], 0, max_flood, "FLOOD"));

    // A descriptor a connection, in one process.
    rlimit files{};
    if (getrlimit(RLIMIT_NOFILE, &files) == 0) {
        files.rlim_cur = files.rlim_max;
        setrlimit(RLIMIT_NOFILE, &files);
    }

    const auto start = Clock::now();
    const auto deadline = start + duration;
    std::exception_ptr flood_failed;
    std::jthread flooding;
    if (flood > 0) {
        flooding = std::jthread([&] {
            try {
                Slowloris(port, flood, deadline).run();
            } catch (...) {
                flood_failed = std::current_exception();
            }
        });
        std::this_thread::sleep_for(1s);
    }
    Totals totals = Clients(port, clients, games, deadline, leave).run();
    const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    if (flooding.joinable()) flooding.join();
    if (flood_failed) std::rethrow_exception(flood_failed);

    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    const auto seconds = [](timeval t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6; };
    const double cpu = seconds(usage.ru_utime) + seconds(usage.ru_stime);

    auto& l = totals.latencies;
    std::sort(l.begin(), l.end());
    const auto pick = [&](double q) {
        return l.empty() ? NAN : l[std::min(l.size() - 1, static_cast<std::size_t>(q * static_cast<double>(l.size())))] * 1000;
    };
    std::printf("%ld %.1f %.2f %.2f %ld %zu %.1f %.1f\n", totals.played / 2, static_cast<double>(totals.played) / 2 / elapsed,
                pick(0.5), pick(0.99), totals.refused, l.size(), cpu, elapsed);
} catch (const std::exception& e) {
    std::fprintf(stderr, "load_client: %s\n", e.what());
    return 1;
}
