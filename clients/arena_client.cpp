// A client for `runner serve` (docs/arena.md) that keeps its own board, in one file with no
// library beyond POSIX sockets: copy it and change my_move().
//
//   c++ -std=c++17 -O2 -o arena_client arena_client.cpp
//   ./arena_client --host HOST --port PORT --name alice/Blocks [--games N] [--width W --height H]
//
// It plants one block (a 2x2 still life) a turn on free ground of its own half. At each game's
// end it prints the server's count beside its own and exits 1 if they ever differ.
#include <arpa/inet.h>
#include <netdb.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace {

// Cells: 0 empty, 1 mine, 2 the opponent's.
struct Board {
    int width, height;
    std::vector<std::uint8_t> cells;
    Board(int w, int h) : width(w), height(h), cells(static_cast<std::size_t>(w) * h) {}

    std::uint8_t& at(int x, int y) { return cells[static_cast<std::size_t>(y) * width + x]; }
    bool on(int x, int y) const { return x >= 0 && x < width && y >= 0 && y < height; }

    // As the server places: off the board ignored, live cells skipped, repeats once.
    void place(const std::vector<std::pair<int, int>>& move, std::uint8_t owner) {
        for (auto [x, y] : move)
            if (on(x, y) && at(x, y) == 0) at(x, y) = owner;
    }

    // One generation of the two-player rules.
    void step() {
        std::vector<std::uint8_t> next(cells.size());
        for (int y = 0; y < height; ++y)
            for (int x = 0; x < width; ++x) {
                int n[3] = {0, 0, 0};
                for (int dy = -1; dy <= 1; ++dy)
                    for (int dx = -1; dx <= 1; ++dx)
                        if ((dx || dy) && on(x + dx, y + dy)) ++n[at(x + dx, y + dy)];
                const std::uint8_t c = at(x, y);
                std::uint8_t& out = next[static_cast<std::size_t>(y) * width + x];
                if (c) out = (n[c] == 2 || n[c] == 3) ? c : 0;
                else if (n[1] == 3 && n[2] == 0) out = 1;
                else if (n[2] == 3 && n[1] == 0) out = 2;
            }
        cells.swap(next);
    }

    std::uint32_t count(std::uint8_t owner) const {
        std::uint32_t n = 0;
        for (std::uint8_t c : cells) n += c == owner;
        return n;
    }
};

struct Connection {
    int fd;
    void send(char type, const std::string& value) {
        std::string m(1, type);
        m += static_cast<char>(value.size());
        m += value;
        for (std::size_t at = 0; at < m.size();) {
            const ssize_t n = ::send(fd, m.data() + at, m.size() - at, MSG_NOSIGNAL);
            if (n <= 0) throw std::runtime_error("the server closed the connection");
            at += static_cast<std::size_t>(n);
        }
    }
    std::string read_exactly(std::size_t n) {
        std::string s(n, '\0');
        for (std::size_t at = 0; at < n;) {
            const ssize_t got = ::recv(fd, &s[at], n - at, 0);
            if (got <= 0) throw std::runtime_error("the server closed the connection");
            at += static_cast<std::size_t>(got);
        }
        return s;
    }
    std::pair<char, std::string> receive() {
        const std::string header = read_exactly(2);
        return {header[0], read_exactly(static_cast<unsigned char>(header[1]))};
    }
};

unsigned byte(const std::string& s, std::size_t i) { return static_cast<unsigned char>(s[i]); }

// A block on free ground of my half, with a free border so it stands alone.
std::vector<std::pair<int, int>> my_move(Board& board, bool first_seat, std::mt19937& rng) {
    const int half = board.width / 2;
    if (half < 4 || board.height < 4) return {};
    for (int attempt = 0; attempt < 50; ++attempt) {
        const int x = 1 + static_cast<int>(rng() % static_cast<unsigned>(half - 3)) + (first_seat ? 0 : half);
        const int y = 1 + static_cast<int>(rng() % static_cast<unsigned>(board.height - 3));
        bool free = true;
        for (int dy = -1; dy <= 2; ++dy)
            for (int dx = -1; dx <= 2; ++dx)
                if (board.on(x + dx, y + dy) && board.at(x + dx, y + dy)) free = false;
        if (free) return {{x, y}, {x + 1, y}, {x, y + 1}, {x + 1, y + 1}};
    }
    return {};
}

int connect_to(const std::string& host, const std::string& port) {
    addrinfo hints{};
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* found = nullptr;
    if (::getaddrinfo(host.c_str(), port.c_str(), &hints, &found) != 0) throw std::runtime_error("cannot resolve " + host);
    int fd = -1;
    for (addrinfo* a = found; a && fd < 0; a = a->ai_next) {
        fd = ::socket(a->ai_family, a->ai_socktype, a->ai_protocol);
        if (fd >= 0 && ::connect(fd, a->ai_addr, a->ai_addrlen) != 0) {
            ::close(fd);
            fd = -1;
        }
    }
    ::freeaddrinfo(found);
    if (fd < 0) throw std::runtime_error("cannot connect to " + host + " port " + port);
    return fd;
}

// One game; true when the server's B equals this client's own count.
bool play(const std::string& host, const std::string& port, const std::string& name, int width, int height,
          std::mt19937& rng) {
    Connection c{connect_to(host, port)};
    c.send('I', name);
    auto [type, value] = c.receive();
    if (type != 'S') throw std::runtime_error("expected S");
    std::fprintf(stderr, "%s: playing %s\n", name.c_str(), value.c_str());
    Board board(width, height);
    int first_seat = -1;  // unknown until the first T or M
    for (;;) {
        auto [t, v] = c.receive();
        if (t == 'T') {
            if (first_seat < 0) first_seat = 1;
            const auto move = my_move(board, first_seat == 1, rng);
            std::string value;
            for (auto [x, y] : move)
                for (int n : {x, y}) value += {static_cast<char>(n >> 8), static_cast<char>(n & 0xff)};
            c.send('M', value);
            board.place(move, 1);
        } else if (t == 'M') {
            if (first_seat < 0) first_seat = 0;
            std::vector<std::pair<int, int>> move;
            for (std::size_t i = 0; i + 4 <= v.size(); i += 4)
                move.push_back({static_cast<int>(byte(v, i) << 8 | byte(v, i + 1)), static_cast<int>(byte(v, i + 2) << 8 | byte(v, i + 3))});
            board.place(move, 2);
        } else if (t == 'G') {
            board.step();
        } else if (t == 'B' && v.size() == 8) {
            const auto u32 = [&](std::size_t i) {
                return std::uint32_t{byte(v, i)} << 24 | byte(v, i + 1) << 16 | byte(v, i + 2) << 8 | byte(v, i + 3);
            };
            const std::uint32_t own = u32(0), other = u32(4);
            std::printf("%s: B %u %u, own count %u %u\n", name.c_str(), own, other, board.count(1), board.count(2));
            std::fflush(stdout);
            ::close(c.fd);
            return own == board.count(1) && other == board.count(2);
        } else {
            throw std::runtime_error(std::string("unexpected message '") + t + "'");
        }
    }
}

}  // namespace

int main(int argc, char** argv) {
    std::string host = "127.0.0.1", port, name;
    int width = 1024, height = 1024, games = 1;
    unsigned seed = 1;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string flag = argv[i], value = argv[i + 1];
        if (flag == "--host") host = value;
        else if (flag == "--port") port = value;
        else if (flag == "--name") name = value;
        else if (flag == "--width") width = std::atoi(value.c_str());
        else if (flag == "--height") height = std::atoi(value.c_str());
        else if (flag == "--games") games = std::atoi(value.c_str());
        else if (flag == "--seed") seed = static_cast<unsigned>(std::atoi(value.c_str()));
        else return std::fprintf(stderr, "unknown option %s\n", flag.c_str()), 2;
    }
    if (port.empty() || name.empty() || width < 1 || height < 1) {
        std::fprintf(stderr, "usage: arena_client --port PORT --name NAME [--host H] [--width W --height H] [--games N]\n");
        return 2;
    }
    std::mt19937 rng(seed);
    bool exact = true;
    try {
        for (int g = 0; g < games; ++g) exact = play(host, port, name, width, height, rng) && exact;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s: %s\n", name.c_str(), e.what());
        return 1;
    }
    return exact ? 0 : 1;
}
