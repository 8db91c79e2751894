// What the arena's end-to-end tests share: `runner serve` in the background with its log, raw
// TCP clients, and the sample clients run as processes.
#pragma once

#include "runner/tlv/tlv.hpp"
#include "runner/sys/process.hpp"
#include "runner/sys/unique_fd.hpp"
#include "runner/testing/runner_fixture.hpp"

#include <doctest/doctest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <csignal>
#include <future>
#include <thread>

namespace gol::runner::testing {

namespace fs = std::filesystem;

using namespace std::chrono_literals;

// `runner serve` in the background, its stderr in a file that the test reads as it grows.
class Server {
public:
    Server(RunnerFixture& f, const fs::path& results, std::vector<std::string> extra) : log_(f.root.path() / "serve.log") {
        std::error_code ec;
        fs::remove(log_, ec);
        SpawnSpec spec;
        spec.argv = {"/bin/sh", "-c", "exec \"$@\" 2>>\"$LOG\"", "sh", RUNNER_BIN, "serve", "--port", "0", "--bind",
                     "127.0.0.1", "--results", results.string(), "--width", "64", "--height", "48", "--generations",
                     "40", "--identify-time", "1000"};
        spec.argv.insert(spec.argv.end(), extra.begin(), extra.end());
        spec.cwd = f.root.path();
        spec.env = std::vector<std::string>{"PATH=/usr/local/bin:/usr/bin:/bin", "LOG=" + log_.string()};
        process_.emplace(spec);
        REQUIRE(process_->started());
        const std::string line = wait_for("port ");
        port_ = std::stoi(line.substr(line.rfind("port ") + 5));
    }

    int port() const { return port_; }
    std::string log() const { return read_text(log_); }

    // The log once it holds `part`.
    std::string wait_for(const std::string& part) {
        // A bound, not a measure: far longer than any of these waits takes, so that a test whose
        // line never comes fails saying so instead of hanging.
        for (int i = 0; i < 3000; ++i) {
            const std::string text = log();
            if (contains(text, part)) return text;
            std::this_thread::sleep_for(20ms);
        }
        FAIL("the arena's log never said \"" << part << "\": " << log());
        return {};
    }

    // The log once it holds `part` `times` times.
    std::string wait_for_count(const std::string& part, std::size_t times) {
        for (int i = 0; i < 3000; ++i) {
            const std::string text = log();
            if (count(text, part) >= times) return text;
            std::this_thread::sleep_for(20ms);
        }
        FAIL("the arena's log never said \"" << part << "\" " << times << " times: " << log());
        return {};
    }

    static std::size_t count(const std::string& text, const std::string& part) {
        std::size_t n = 0;
        for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + part.size())) ++n;
        return n;
    }

    // SIGINT, as Ctrl-C sends it: the arena stops cleanly.
    std::string stop() {
        ::kill(process_->pid(), SIGINT);
        const std::string text = wait_for("arena: stopped");
        process_->end();
        return text;
    }

private:
    fs::path log_;
    int port_ = 0;
    std::optional<BackgroundProcess> process_;
};

// A connection to the arena from `from`, an address of 127.0.0.0/8: every one of them is this
// machine's, so a test plays clients of several addresses without a network.
inline UniqueFd connect_to(int port, const char* from = "127.0.0.1") {
    UniqueFd fd(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
    REQUIRE(fd);
    sockaddr_in local{};
    local.sin_family = AF_INET;
    REQUIRE(::inet_pton(AF_INET, from, &local.sin_addr) == 1);
    REQUIRE(::bind(fd.get(), reinterpret_cast<const sockaddr*>(&local), sizeof local) == 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<std::uint16_t>(port));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(::connect(fd.get(), reinterpret_cast<const sockaddr*>(&addr), sizeof addr) == 0);
    // No wait in these tests is long; one that is means the arena did not answer.
    const timeval limit{30, 0};
    ::setsockopt(fd.get(), SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof limit);
    return fd;
}

inline void send_all(int fd, const std::string& bytes) {
    REQUIRE(::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(bytes.size()));
}

// Whether the arena closed the connection (reading gives its end, not a timeout).
// Closes with a reset, as a client whose machine drops the connection does: no FIN, an RST.
inline void reset(UniqueFd& fd) {
    const linger abort{1, 0};
    ::setsockopt(fd.get(), SOL_SOCKET, SO_LINGER, &abort, sizeof abort);
    fd = UniqueFd();
}

inline bool closed_by_arena(int fd) {
    char buf[256];
    for (;;) {
        const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
        if (n == 0 || (n < 0 && errno == ECONNRESET)) return true;
        if (n < 0) return false;
    }
}

inline tlv::Message next_message(int fd, tlv::Reader& reader) {
    for (;;) {
        if (auto m = reader.next()) return *m;
        char buf[256];
        const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
        REQUIRE(n > 0);
        reader.feed(std::string_view(buf, static_cast<std::size_t>(n)));
    }
}

// Two raw clients identify, each from its address, the first waiting until the arena has it;
// true when they are paired (the first's next message is its S). They leave when it returns.
inline bool paired(Server& server, const std::string& first, const std::string& first_name, const char* first_from,
                   const std::string& second, const char* second_from) {
    UniqueFd a = connect_to(server.port(), first_from);
    send_all(a.get(), tlv::identification(first));
    server.wait_for("identified as " + first_name);
    UniqueFd b = connect_to(server.port(), second_from);
    send_all(b.get(), tlv::identification(second));
    tlv::Reader reader;
    return next_message(a.get(), reader).type == tlv::Type::start;
}

inline RunOutcome run_client(RunnerFixture& f, std::vector<std::string> argv) {
    SpawnSpec spec;
    spec.argv = std::move(argv);
    spec.cwd = f.root.path();
    spec.timeout = 120s;
    return run_process(spec);
}

inline std::vector<std::string> python_client(int port, const std::string& name) {
    return {"python3", std::string(ARENA_CLIENTS_DIR) + "/arena_client.py", "--port", std::to_string(port), "--name",
            name, "--width", "64", "--height", "48"};
}

inline std::vector<std::string> cpp_client(int port, const std::string& name) {
    return {ARENA_CLIENT_BIN, "--port", std::to_string(port), "--name", name, "--width", "64", "--height", "48",
            "--seed", "7"};
}

inline std::vector<std::string> ruby_client(int port, const std::string& name) {
    return {"ruby", std::string(ARENA_CLIENTS_DIR) + "/arena_client.rb", "--port", std::to_string(port), "--name",
            name, "--width", "64", "--height", "48", "--seed", "3"};
}

// Both clients' runs, played at once.
inline std::array<RunOutcome, 2> play(RunnerFixture& f, std::vector<std::string> a, std::vector<std::string> b) {
    auto first = std::async(std::launch::async, [&] { return run_client(f, a); });
    RunOutcome second = run_client(f, b);
    return {first.get(), second};
}

inline void check_exact(const RunOutcome& r, const std::string& name) {
    INFO(name << ": " << r.out << r.err);
    CHECK(r.kind == RunOutcome::Kind::exited);
    CHECK(r.exit_status == 0);
    CHECK(contains(r.out, name + ": B "));
}


}  // namespace gol::runner::testing
