#include "runner/tlv/tlv_seat.hpp"

#include "runner/tlv/tlv.hpp"

#include <doctest/doctest.h>

#include <sys/socket.h>

#include <optional>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

using namespace gol;
using namespace gol::runner;
using namespace std::chrono_literals;

namespace {

// A remote client's seat over a socket pair: the test holds the client's end.
struct RemoteSeat {
    UniqueFd client;
    StopEvent stop{std::stop_token{}};
    std::optional<ClientConnection> connection;
    std::optional<TlvSeat> seat;
    tlv::Reader reader;

    RemoteSeat() {
        int fds[2];
        REQUIRE(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) == 0);
        client = UniqueFd(fds[1]);
        connection.emplace(UniqueFd(fds[0]), "a test client");
        // Long enough that no wait in these tests ends at it.
        seat.emplace(*connection, 60s, stop);
    }

    // The next message the seat sent, waiting for it; nullopt when the seat's end closed first.
    std::optional<tlv::Message> next() {
        for (;;) {
            if (std::optional<tlv::Message> m = reader.next()) return m;
            char buf[256];
            const ssize_t n = ::recv(client.get(), buf, sizeof buf, 0);
            if (n <= 0) return std::nullopt;
            reader.feed(std::string_view(buf, static_cast<std::size_t>(n)));
        }
    }

    // Whether the seat sent anything that has not been read.
    bool sent_more() {
        char byte;
        return ::recv(client.get(), &byte, 1, MSG_PEEK | MSG_DONTWAIT) > 0;
    }

    void send(const std::string& bytes) {
        REQUIRE(::send(client.get(), bytes.data(), bytes.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(bytes.size()));
    }
};

tlv::Message message(tlv::Type type) {
    tlv::Message m;
    m.type = type;
    return m;
}

}  // namespace

TEST_CASE("a remote client's seat tells it its game at once and plays the M it answers T with") {
    RemoteSeat r;
    r.seat->begin(2, "rival");
    tlv::Message start = message(tlv::Type::start);
    start.text = "rival";
    CHECK(r.next() == start);

    MoveReport opponent;
    opponent.cells = {{1, 2}};
    r.seat->watcher()->on_move(0, 1, opponent);
    r.seat->watcher()->on_move(0, 2, opponent);  // its own move is not told back
    r.seat->watcher()->on_generation(1, 3, 0);
    tlv::Message move = message(tlv::Type::move);
    move.cells = {{1, 2}};
    CHECK(r.next() == move);
    CHECK(r.next() == message(tlv::Type::generation));
    CHECK_FALSE(r.sent_more());

    std::optional<tlv::Message> asked;
    std::thread client([&] {
        asked = r.next();
        const std::string m = tlv::move(std::vector<Cell>{{3, 4}});
        // No REQUIRE off the test's thread: a failed send shows as the move's forfeit.
        [[maybe_unused]] const ssize_t n = ::send(r.client.get(), m.data(), m.size(), MSG_NOSIGNAL);
    });
    const MoveReport report = r.seat->move(Board(10, 10), 2, 1);
    client.join();
    CHECK(asked == message(tlv::Type::turn));
    REQUIRE(report.ok());
    CHECK(report.cells == std::vector<Cell>{{3, 4}});

    GameResult result;
    result.cells = {5, 7};
    r.seat->bye(result);
    tlv::Message bye = message(tlv::Type::bye);
    bye.counts = {7, 5};  // its own cells first
    CHECK(r.next() == bye);
}

TEST_CASE("two clients' seats that share their sends: each is told its game with its T, or before the other's turn waits") {
    RemoteSeat a, b;
    a.seat->share_sends_with(*b.seat);
    a.seat->begin(1, "b");
    b.seat->begin(2, "a");
    CHECK_FALSE(a.sent_more());  // nothing waits yet
    CHECK_FALSE(b.sent_more());
    tlv::Message start_a = message(tlv::Type::start), start_b = message(tlv::Type::start);
    start_a.text = "b";
    start_b.text = "a";
    tlv::Message m_a = message(tlv::Type::move), m_b = message(tlv::Type::move);
    m_a.cells = {{1, 1}};
    m_b.cells = {{2, 2}};

    // A client's turn: what it reads before it answers, and what its opponent has been sent by
    // then (read there, so a seat that kept it back would leave this turn waiting).
    const auto turn = [](RemoteSeat& mover, RemoteSeat& other, int seat, int tick, const std::vector<Cell>& cells,
                         std::size_t told, std::size_t other_told) {
        std::vector<std::optional<tlv::Message>> read, other_read;
        std::thread client([&] {
            for (std::size_t i = 0; i < told; ++i) read.push_back(mover.next());
            for (std::size_t i = 0; i < other_told; ++i) other_read.push_back(other.next());
            const std::string m = tlv::move(cells);
            [[maybe_unused]] const ssize_t n = ::send(mover.client.get(), m.data(), m.size(), MSG_NOSIGNAL);
        });
        MoveReport report = mover.seat->move(Board(10, 10), seat, tick);
        client.join();
        CHECK(report.cells == cells);
        return std::pair{read, other_read};
    };

    auto [read, other_read] = turn(a, b, 1, 0, {{1, 1}}, 2, 1);
    CHECK(read == std::vector<std::optional<tlv::Message>>{start_a, message(tlv::Type::turn)});
    CHECK(other_read == std::vector<std::optional<tlv::Message>>{start_b});
    MoveReport moved;
    moved.cells = {{1, 1}};
    a.seat->watcher()->on_move(0, 1, moved);
    b.seat->watcher()->on_move(0, 1, moved);
    CHECK_FALSE(b.sent_more());  // a's M goes with b's T

    std::tie(read, other_read) = turn(b, a, 2, 0, {{2, 2}}, 2, 0);
    CHECK(read == std::vector<std::optional<tlv::Message>>{m_a, message(tlv::Type::turn)});
    moved.cells = {{2, 2}};
    a.seat->watcher()->on_move(0, 2, moved);
    b.seat->watcher()->on_move(0, 2, moved);
    a.seat->watcher()->on_generation(1, 1, 1);
    b.seat->watcher()->on_generation(1, 1, 1);
    CHECK_FALSE(a.sent_more());
    CHECK_FALSE(b.sent_more());

    // b's G is sent before a's turn waits for a's M.
    std::tie(read, other_read) = turn(a, b, 1, 1, {{1, 1}}, 3, 1);
    CHECK(read == std::vector<std::optional<tlv::Message>>{m_b, message(tlv::Type::generation), message(tlv::Type::turn)});
    CHECK(other_read == std::vector<std::optional<tlv::Message>>{message(tlv::Type::generation)});
    CHECK_FALSE(a.sent_more());
    CHECK_FALSE(b.sent_more());
}

TEST_CASE("an opponent's name S cannot carry is told as \"opponent\"") {
    RemoteSeat r;
    r.seat->begin(1, std::string(256, 'x'));  // a value's length is one byte
    tlv::Message start = message(tlv::Type::start);
    start.text = "opponent";
    CHECK(r.next() == start);
}

TEST_CASE("a client that writes before its T is disconnected, and is asked nothing more") {
    RemoteSeat r;
    r.seat->begin(1, "rival");
    REQUIRE(r.next());
    r.send(tlv::move({}));
    const MoveReport first = r.seat->move(Board(10, 10), 1, 0);
    REQUIRE(first.forfeit);
    CHECK(first.forfeit->kind == ForfeitKind::disconnected);
    CHECK(first.forfeit->detail == "it sent a message out of turn, before its T");

    r.seat->watcher()->on_generation(1, 0, 0);
    const MoveReport second = r.seat->move(Board(10, 10), 1, 1);
    REQUIRE(second.forfeit);
    CHECK(second.forfeit->detail == first.forfeit->detail);
    r.seat->bye(GameResult{});
    CHECK_FALSE(r.sent_more());
}

TEST_CASE("a client that closed its end loses its turn, which says so") {
    RemoteSeat r;
    r.seat->begin(1, "rival");
    r.client = UniqueFd();
    const MoveReport report = r.seat->move(Board(10, 10), 1, 0);
    REQUIRE(report.forfeit);
    CHECK(report.forfeit->kind == ForfeitKind::disconnected);
    CHECK(report.forfeit->detail == "the client closed the connection");
}
