#include "runner/arena/arena_server.hpp"

#include "runner/arena/arena_game.hpp"
#include "runner/arena/arena_schedule.hpp"
#include "runner/bots/connection.hpp"
#include "runner/game/game_stats.hpp"
#include "runner/text/terminal_text.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>
#include <vector>

namespace gol::runner {

namespace {

using Clock = std::chrono::steady_clock;

std::string peer_name(const sockaddr_storage& addr) {
    char host[INET6_ADDRSTRLEN] = "?";
    if (addr.ss_family == AF_INET) {
        const auto& a = reinterpret_cast<const sockaddr_in&>(addr);
        ::inet_ntop(AF_INET, &a.sin_addr, host, sizeof host);
        return std::string(host) + ":" + std::to_string(ntohs(a.sin_port));
    }
    const auto& a = reinterpret_cast<const sockaddr_in6&>(addr);
    ::inet_ntop(AF_INET6, &a.sin6_addr, host, sizeof host);
    return "[" + std::string(host) + "]:" + std::to_string(ntohs(a.sin6_port));
}

UniqueFd listen_on(const std::string& bind, int port) {
    sockaddr_storage addr{};
    socklen_t len = 0;
    auto& v4 = reinterpret_cast<sockaddr_in&>(addr);
    auto& v6 = reinterpret_cast<sockaddr_in6&>(addr);
    if (::inet_pton(AF_INET, bind.c_str(), &v4.sin_addr) == 1) {
        v4.sin_family = AF_INET;
        v4.sin_port = htons(static_cast<std::uint16_t>(port));
        len = sizeof v4;
    } else if (::inet_pton(AF_INET6, bind.c_str(), &v6.sin6_addr) == 1) {
        v6.sin6_family = AF_INET6;
        v6.sin6_port = htons(static_cast<std::uint16_t>(port));
        len = sizeof v6;
    } else {
        throw ArenaError("--bind " + terminal_line(bind) + ": not an IPv4 or IPv6 address");
    }
    UniqueFd fd(::socket(addr.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
    if (!fd) throw ArenaError(std::string("socket: ") + std::strerror(errno));
    const int one = 1;
    ::setsockopt(fd.get(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (::bind(fd.get(), reinterpret_cast<const sockaddr*>(&addr), len) != 0 || ::listen(fd.get(), 128) != 0)
        throw ArenaError("cannot listen on " + terminal_line(bind) + " port " + std::to_string(port) + ": " +
                         std::strerror(errno));
    return fd;
}

int bound_port(int fd) {
    sockaddr_storage addr{};
    socklen_t len = sizeof addr;
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
    return addr.ss_family == AF_INET ? ntohs(reinterpret_cast<const sockaddr_in&>(addr).sin_port)
                                     : ntohs(reinterpret_cast<const sockaddr_in6&>(addr).sin6_port);
}

// Waiting clients hold a descriptor each: allow as many as the hard limit lets.
void raise_open_files_limit() {
    rlimit limit{};
    if (::getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < limit.rlim_max) {
        limit.rlim_cur = limit.rlim_max;
        ::setrlimit(RLIMIT_NOFILE, &limit);
    }
}

// "A won by forfeit after 3 generations (B: the client closed the connection)", as a league's line says it.
std::string outcome_text(const ScheduledGame& g, const PlayedGame& game) {
    const GameResult& r = game.record.result;
    const std::string after = " after " + std::to_string(r.generations) + (r.generations == 1 ? " generation" : " generations");
    std::string text = r.verdict.winner_seat == 0 ? "draw" + after
                                                  : terminal_line(g.inputs.bots[r.verdict.winner_seat - 1]) + " won by " +
                                                        std::string(name(r.verdict.reason)) + after;
    if (r.verdict.reason == EndReason::forfeit) {
        const int loser = 3 - r.verdict.winner_seat;
        const std::optional<Forfeit>& f = game.record.ticks.back()[loser - 1].forfeit;
        text += " (" + terminal_line(g.inputs.bots[loser - 1]) + ": " + terminal_line(f ? f->detail : "?") + ")";
    }
    return text;
}

}  // namespace

struct Arena::State {
    // A client between its connection and its game: identifying, then waiting to be paired.
    struct Waiting {
        std::unique_ptr<ClientConnection> connection;
        Clock::time_point identify_by;
        std::string name;  // empty until it has identified
        std::uint64_t arrival = 0;  // the order in which clients identified
        Clock::time_point identified_at{};
    };

    // A game's end, handed from its thread to the arena's.
    struct Finished {
        std::uint64_t id = 0;
        ScheduledGame game;
        std::optional<PlayedGame> played;  // none: interrupted or failed
        std::string log;
        std::string error;
        bool training = false;
    };

    State(ArenaOptions options, std::FILE* log_to)
        : o(std::move(options)),
          log(log_to),
          listener(listen_on(o.bind, o.port)),
          port(bound_port(listener.get())),
          store(o.results_dir),
          schedule(store, o.settings, log),
          training_store(o.training ? std::optional<ResultsStore>(std::in_place, o.results_dir / "training") : std::nullopt),
          training_schedule(training_store ? std::optional<ArenaSchedule>(std::in_place, *training_store, o.settings, log)
                                           : std::nullopt),
          wake(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) {
        if (!wake) throw ArenaError(std::string("eventfd: ") + std::strerror(errno));
    }
    ~State() { games_stop.request_stop(); }

    void say(const std::string& line) {
        std::fprintf(log, "arena: %s\n", line.c_str());
        std::fflush(log);
    }

    void close_client(std::size_t i, const std::string& why) {
        Waiting& w = waiting[i];
        say(w.connection->peer() + (w.name.empty() ? "" : " (" + terminal_line(w.name) + ")") + ": closed: " + why);
        if (!w.name.empty()) release({w.name});
        waiting.erase(waiting.begin() + static_cast<std::ptrdiff_t>(i));
    }

    // False when a client is connected under `name` already.
    bool claim(const std::string& name) {
        std::lock_guard lock(names_mutex);
        return names.insert(name).second;
    }

    // The names are free to identify under again; a name already free is left so.
    void release(std::initializer_list<std::string> released) {
        std::lock_guard lock(names_mutex);
        for (const std::string& n : released) names.erase(n);
    }

    void accept_clients() {
        for (;;) {
            sockaddr_storage addr{};
            socklen_t len = sizeof addr;
            UniqueFd fd(::accept4(listener.get(), reinterpret_cast<sockaddr*>(&addr), &len, SOCK_NONBLOCK | SOCK_CLOEXEC));
            if (!fd) {
                if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
                    say(std::string("cannot take more connections now: ") + std::strerror(errno));
                    accept_paused_until = Clock::now() + std::chrono::milliseconds(200);
                }
                return;  // EAGAIN: none left; ECONNABORTED and the like: that one is gone
            }
            const std::string peer = peer_name(addr);
            if (waiting.size() >= o.max_waiting) {
                say(peer + ": closed: " + std::to_string(waiting.size()) + " connections are waiting already");
                continue;
            }
            waiting.push_back({std::make_unique<ClientConnection>(std::move(fd), peer), Clock::now() + o.identify_within, {}, 0});
        }
    }

    // What arrived from waiting client i: its identification, or a reason to close it.
    // False when it was closed.
    bool take_input(std::size_t i) {
        Waiting& w = waiting[i];
        ClientConnection::Arrived arrived;
        try {
            arrived = w.connection->take_arrived();
        } catch (const ConnectionLost& e) {
            close_client(i, e.what());
            return false;
        }
        if (arrived == ClientConnection::Arrived::nothing) return true;
        if (arrived == ClientConnection::Arrived::closed) {
            close_client(i, w.name.empty() ? closed_reason(w.connection->reader()) : "it left while waiting for a game");
            return false;
        }
        if (!w.name.empty()) {
            close_client(i, "it sent a message while waiting for its game, out of turn");
            return false;
        }
        std::optional<tlv::Message> m;
        try {
            m = w.connection->reader().next();
        } catch (const tlv::ProtocolError& e) {
            close_client(i, std::string("it sent ") + e.what());
            return false;
        }
        if (!m) return true;
        if (m->type != tlv::Type::identification) {
            close_client(i, std::string("it sent '") + static_cast<char>(m->type) + "' before identifying with 'I'");
            return false;
        }
        std::string why;
        const std::optional<std::string> name = admitted_name(m->text, o.keys ? &*o.keys : nullptr, why);
        if (!name) {
            close_client(i, why);
            return false;
        }
        // The training bot's games pair it with the client: a client under its name would play itself.
        if (o.training && name->starts_with(training_prefix)) {
            close_client(i, "the name \"" + terminal_line(*name) + "\" begins with " + std::string(training_prefix) +
                                ", which the training bot's name does");
            return false;
        }
        if (w.connection->reader().held() > 0) {
            close_client(i, "it sent more after its identification, out of turn");
            return false;
        }
        if (!claim(*name)) {
            close_client(i, "the name \"" + terminal_line(*name) + "\" is connected already");
            return false;
        }
        w.name = *name;
        w.arrival = ++arrivals;
        w.identified_at = Clock::now();
        say(w.connection->peer() + " identified as " + terminal_line(w.name));
        return true;
    }

    // take_input, whatever it meets: an error of one client's input closes that client, never the arena.
    void guarded_input(std::size_t i) {
        try {
            take_input(i);
        } catch (const std::exception& e) {
            if (i < waiting.size()) close_client(i, std::string("its input could not be handled: ") + e.what());
        }
    }

    void close_late_identifications() {
        const Clock::time_point now = Clock::now();
        for (std::size_t i = waiting.size(); i-- > 0;)
            if (waiting[i].name.empty() && now >= waiting[i].identify_by)
                close_client(i, "no whole identification within " +
                                    std::to_string(o.identify_within.count()) + " ms" +
                                    (waiting[i].connection->reader().held()
                                         ? " (" + std::to_string(waiting[i].connection->reader().held()) + " bytes of one)"
                                         : ""));
    }

    // Pairs waiting clients while games may start: the pair that has met least, then the
    // pair waiting longest.
    void start_games() {
        while (static_cast<int>(running.size()) < o.jobs) {
            std::optional<std::pair<std::size_t, std::size_t>> best;
            std::tuple<int, std::uint64_t, std::uint64_t> best_rank{};
            for (std::size_t i = 0; i < waiting.size(); ++i)
                for (std::size_t j = i + 1; j < waiting.size(); ++j) {
                    if (waiting[i].name.empty() || waiting[j].name.empty()) continue;
                    const std::uint64_t first = std::min(waiting[i].arrival, waiting[j].arrival);
                    const std::uint64_t second = std::max(waiting[i].arrival, waiting[j].arrival);
                    const std::tuple rank{schedule.met(waiting[i].name, waiting[j].name), first, second};
                    if (!best || rank < best_rank) best = std::pair{i, j}, best_rank = rank;
                }
            if (!best) break;
            std::unique_ptr<ClientConnection> a = std::move(waiting[best->first].connection);
            std::unique_ptr<ClientConnection> b = std::move(waiting[best->second].connection);
            const std::string name_a = waiting[best->first].name, name_b = waiting[best->second].name;
            waiting.erase(waiting.begin() + static_cast<std::ptrdiff_t>(best->second));
            waiting.erase(waiting.begin() + static_cast<std::ptrdiff_t>(best->first));
            ScheduledGame game;
            try {
                game = schedule.begin(name_a, name_b);
            } catch (const std::exception& e) {
                say("cannot store a game: " + std::string(e.what()) + "; " + terminal_line(name_a) + " and " +
                    terminal_line(name_b) + " are closed");
                release({name_a, name_b});
                continue;
            }
            if (game.inputs.bots[0] != name_a) std::swap(a, b);
            begin(game, {std::move(a), std::move(b)}, false);
        }
        start_training();
    }

    // A client waiting alone for --training-after plays the training bot, while games may start.
    void start_training() {
        if (!o.training || static_cast<int>(running.size()) >= o.jobs) return;
        const Clock::time_point now = Clock::now();
        std::size_t identified = 0, alone = waiting.size();
        for (std::size_t i = 0; i < waiting.size(); ++i)
            if (!waiting[i].name.empty()) ++identified, alone = i;
        if (identified != 1 || now < waiting[alone].identified_at + o.training->after) return;
        std::unique_ptr<ClientConnection> client = std::move(waiting[alone].connection);
        const std::string name = waiting[alone].name;
        waiting.erase(waiting.begin() + static_cast<std::ptrdiff_t>(alone));
        ScheduledGame game;
        try {
            game = training_schedule->begin(name, o.training->name, o.training->hash);
        } catch (const std::exception& e) {
            say("cannot store a training game: " + std::string(e.what()) + "; " + terminal_line(name) + " is closed");
            release({name});
            return;
        }
        std::array<std::unique_ptr<ClientConnection>, 2> seats;
        seats[game.inputs.bots[0] == name ? 0 : 1] = std::move(client);
        begin(game, std::move(seats), true);
    }

    // When the next training game may begin: the one client waiting alone's time, if any.
    std::optional<Clock::time_point> training_due() const {
        if (!o.training) return std::nullopt;
        std::optional<Clock::time_point> due;
        int identified = 0;
        for (const Waiting& w : waiting)
            if (!w.name.empty()) ++identified, due = w.identified_at + o.training->after;
        return identified == 1 ? due : std::nullopt;
    }

    void begin(const ScheduledGame& game, std::array<std::unique_ptr<ClientConnection>, 2> seats, bool training) {
        say(std::string(training ? "training game " : "game ") + terminal_line(game.inputs.bots[0]) + " vs " +
            terminal_line(game.inputs.bots[1]) + " (game " + std::to_string(game.inputs.game_index + 1) +
            " of the pair) begins");
        const std::uint64_t id = ++games_begun;
        try {
            running.emplace(id, std::jthread([this, id, game, seats = std::move(seats), training]() mutable {
                                play(id, game, std::move(seats), training, games_stop.get_token());
                            }));
        } catch (const std::system_error& e) {
            // No thread for it (the system's limit): the game is not played, its clients are closed.
            say("cannot start a game: " + std::string(e.what()) + "; not played");
            (training ? *training_schedule : schedule).end(game, false);
            training ? release({game.inputs.bots[0] == o.training->name ? game.inputs.bots[1] : game.inputs.bots[0]})
                     : release({game.inputs.bots[0], game.inputs.bots[1]});
        }
    }

    // A game's thread.
    void play(std::uint64_t id, const ScheduledGame& game, std::array<std::unique_ptr<ClientConnection>, 2> seats,
              bool training, std::stop_token stop) {
        Finished f{id, game, std::nullopt, {}, {}, training};
        const std::string& client = game.inputs.bots[seats[0] ? 0 : 1];
        const std::string& other = game.inputs.bots[seats[0] ? 1 : 0];
        const auto free_names = [&] { training ? release({client}) : release({client, other}); };
        try {
            const StopEvent stop_event(stop);
            const ReplayHeader header{game.inputs.bots, game.inputs.hashes, o.settings.config, game.inputs.seed,
                                      o.settings.time_limit_ms};
            std::unique_ptr<Mover> bot = training ? o.training->player(bot_seed(o.settings.seed, game.key)) : nullptr;
            std::ostringstream log_text;
            GameLog game_log(log_text, header.bots);
            ArenaGame arena_game({seats[0].get(), seats[1].get()}, header,
                                 std::chrono::milliseconds(o.settings.time_limit_ms), stop_event, bot.get());
            f.played = arena_game.play(game_log);
            f.log = log_text.str();
            // Free to identify again before they hear of the end, so that a client that reconnects
            // at once is not refused as connected already.
            free_names();
            arena_game.bye(f.played->record.result);
        } catch (const GameInterrupted&) {
        } catch (const std::exception& e) {
            f.error = e.what();
        }
        free_names();
        // The connections close here, after the clients' B.
        for (auto& c : seats) c.reset();
        std::lock_guard lock(mutex);
        finished.push_back(std::move(f));
        const std::uint64_t count = 1;
        [[maybe_unused]] const ssize_t n = ::write(wake.get(), &count, sizeof count);
    }

    void store_finished() {
        std::vector<Finished> done;
        {
            std::lock_guard lock(mutex);
            done.swap(finished);
            std::uint64_t count;
            [[maybe_unused]] const ssize_t n = ::read(wake.get(), &count, sizeof count);
        }
        for (Finished& f : done) {
            running.erase(f.id);  // joins: its thread has returned or is returning
            const ScheduledGame& g = f.game;
            ResultsStore& to = f.training ? *training_store : store;
            ArenaSchedule& of = f.training ? *training_schedule : schedule;
            const std::string pair = std::string(f.training ? "training " : "") + terminal_line(g.inputs.bots[0]) +
                                     " vs " + terminal_line(g.inputs.bots[1]);
            if (!f.played) {
                of.end(g, false);
                say(pair + ": " + (f.error.empty() ? "interrupted, not stored" : "failed, not stored: " + f.error));
                continue;
            }
            try {
                const GameRecord record = make_record(g, f.played->record.result, f.played->stats);
                to.save(record, replay_text(f.played->record), f.log);
                of.end(g, true);
                say(pair + ": " + outcome_text(g, *f.played));
                if (o.observer && !f.training) {
                    o.observer->game_stored(store, record, *f.played);
                    o.observer->run_finished(store, table_from_store(store.dir(), std::nullopt, log));
                }
            } catch (const std::exception& e) {
                of.end(g, false);
                say(pair + ": not stored: " + e.what());
            }
        }
    }

    void serve(std::stop_token stop) {
        const std::stop_callback forward(stop, [this] { games_stop.request_stop(); });
        const StopEvent stop_event(games_stop.get_token());
        raise_open_files_limit();
        while (!stop_event.stopped()) {
            const Clock::time_point now = Clock::now();
            const bool accepting = now >= accept_paused_until;
            std::vector<pollfd> fds = {{accepting ? listener.get() : -1, POLLIN, 0},
                                       {stop_event.fd(), POLLIN, 0},
                                       {wake.get(), POLLIN, 0}};
            // The first deadline the loop must wake for, if any.
            Clock::time_point next = accepting ? Clock::time_point::max() : accept_paused_until;
            if (const std::optional<Clock::time_point> due = training_due()) next = std::min(next, *due);
            for (const Waiting& w : waiting) {
                fds.push_back({w.connection->fd(), POLLIN, 0});
                if (w.name.empty()) next = std::min(next, w.identify_by);
            }
            const int timeout =
                next == Clock::time_point::max()
                    ? -1
                    : static_cast<int>(std::clamp<long long>(
                          std::chrono::ceil<std::chrono::milliseconds>(next - now).count(), 0, 60'000));
            if (::poll(fds.data(), fds.size(), timeout) < 0 && errno != EINTR)
                throw ArenaError(std::string("poll: ") + std::strerror(errno));
            if (fds[1].revents) break;
            if (fds[2].revents) store_finished();
            // From the last, so that closing one leaves the others' places in `fds` as they were.
            for (std::size_t i = waiting.size(); i-- > 0;)
                if (fds[3 + i].revents) guarded_input(i);
            if (fds[0].revents) accept_clients();
            close_late_identifications();
            start_games();
        }
        for (std::size_t i = waiting.size(); i-- > 0;) close_client(i, "the arena is stopping");
        // The games see the stop and end; each thread returns once its game has.
        for (auto& [id, thread] : running) thread.join();
        store_finished();
    }

    ArenaOptions o;
    std::FILE* log;
    UniqueFd listener;
    int port;
    ResultsStore store;
    ArenaSchedule schedule;
    std::optional<ResultsStore> training_store;  // with --training: results_dir/training
    std::optional<ArenaSchedule> training_schedule;
    std::vector<Waiting> waiting;
    std::uint64_t arrivals = 0, games_begun = 0;
    Clock::time_point accept_paused_until{};
    std::mutex names_mutex;
    std::set<std::string> names;  // under names_mutex: connected under them, waiting or playing
    std::mutex mutex;
    std::vector<Finished> finished;  // under mutex
    UniqueFd wake;                   // readable when `finished` holds any
    // What the games' threads see: the arena's stop, or the arena's end however it came.
    std::stop_source games_stop;
    // Last, so that it is destroyed first: its threads are joined while all they use is here.
    std::map<std::uint64_t, std::jthread> running;
};

Arena::Arena(ArenaOptions options, std::FILE* log) : state_(std::make_unique<State>(std::move(options), log)) {}
Arena::~Arena() = default;
int Arena::port() const { return state_->port; }
void Arena::serve(std::stop_token stop) { state_->serve(stop); }

}  // namespace gol::runner
