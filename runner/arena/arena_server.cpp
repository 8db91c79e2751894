#include "runner/arena/arena_server.hpp"

#include "runner/arena/arena_pages.hpp"
#include "runner/arena/arena_schedule.hpp"
#include "runner/arena/client_address.hpp"
#include "runner/arena/key_throttle.hpp"
#include "runner/arena/refusal_log.hpp"
#include "runner/arena/window_counts.hpp"
#include "runner/game/game_stats.hpp"
#include "runner/game/play_and_record.hpp"
#include "runner/tlv/connection.hpp"
#include "runner/tlv/tlv_seat.hpp"
#include "runner/text/count_text.hpp"
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
using namespace std::chrono_literals;

// How long a client identifying under a name still held may wait for it to be freed: a client
// that reconnects at once after its game or its drop is let in, not refused.
constexpr Clock::duration kNameGrace = 5s;
// A client is paired only once its peer has answered since it was picked for a game (or just
// before): TCP sees a peer that vanished without a FIN or reset only when keepalive's probes, a
// second apart while it waits, go unanswered. A pick older than kPickFor asks for a newer answer.
constexpr Clock::duration kFreshAnswer = 100ms;
constexpr Clock::duration kPickFor = 2s;
constexpr Clock::duration kAnswerPoll = 20ms;
constexpr int kAcceptsPerTurn = 16;

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
    if (::bind(fd.get(), reinterpret_cast<const sockaddr*>(&addr), len) != 0 || ::listen(fd.get(), SOMAXCONN) != 0)
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

// "A won by forfeit after 3 generations (B: the client closed the connection)", as a league's line says it.
std::string outcome_text(const ScheduledGame& g, const PlayedGame& game) {
    const GameResult& r = game.record.result;
    const std::string after = " after " + count_text(r.generations, "generation");
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
        std::string address;
        std::string name{};  // empty until it has identified
        Clock::time_point identified_at{};  // also the order in which clients identified
        std::string held_name{};  // admitted under a name still held: it waits for it until identify_by
        bool waits_for_name = false;
        std::optional<Clock::time_point> picked_at{};  // when last picked for a game (heard_since_picked)
        bool unheard = false;                        // not answered since
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
          wake(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)),
          refusals(log, o.log_interval, o.log_lines) {
        if (!wake) throw ArenaError(std::string("eventfd: ") + std::strerror(errno));
        if (o.observer) pages.emplace(*o.observer, store, o.leaderboard_every, log);
    }
    ~State() { games_stop.request_stop(); }

    void say(const std::string& line) { arena_say(log, line); }

    // Closes waiting client i, saying why. One that never identified is one of a flood's, maybe:
    // its line goes through `refusals`, which counts it under `reason` once its address has had
    // its lines in full.
    void close_client(std::size_t i, const std::string& why, const std::string& reason) {
        Waiting& w = waiting[i];
        const std::string line =
            w.connection->peer() + (w.name.empty() ? "" : " (" + terminal_line(w.name) + ")") + ": closed: " + why;
        if (w.name.empty()) refusals.closed(w.address, line, reason);
        else say(line);
        if (!w.name.empty()) release({w.name});
        waiting.erase(waiting.begin() + static_cast<std::ptrdiff_t>(i));
    }

    // A new connection's time to identify: the whole of it while under half the room is taken by
    // connections identifying, then less as more are, so that a flood's connections make room sooner.
    Clock::duration identify_time() const {
        const std::size_t half = std::max<std::size_t>(o.max_waiting / 2, 1);
        const auto now_identifying = static_cast<std::size_t>(
            std::count_if(waiting.begin(), waiting.end(), [](const Waiting& w) { return w.name.empty(); }));
        if (now_identifying < half) return o.identify_within;
        const std::size_t left = o.max_waiting > now_identifying ? o.max_waiting - now_identifying : 0;
        return std::max<Clock::duration>(std::min(o.identify_at_least, o.identify_within),
                                         o.identify_within * static_cast<long>(left) / static_cast<long>(half));
    }

    // Room for a new connection when the waiting room is full: the oldest identifying connection
    // of the addresses with the most of them goes (oldest of all of them, so that a flood with as
    // many from each of its addresses closes its own, not a newer client's, whatever its address).
    // Clients that identified are never closed for it.
    bool make_room() {
        std::map<std::string, std::size_t> per_address;
        std::size_t most = 0;
        for (const Waiting& w : waiting)
            if (w.name.empty()) most = std::max(most, ++per_address[w.address]);
        for (std::size_t i = 0; i < waiting.size(); ++i)
            if (waiting[i].name.empty() && per_address[waiting[i].address] == most) {
                close_client(i, "room made for a new connection (" + std::to_string(waiting.size()) + " were waiting)",
                             "closed to make room");
                return true;
            }
        return false;
    }

    // False when a client is connected under `name` already.
    bool claim(const std::string& name) {
        std::lock_guard lock(names_mutex);
        return names.insert(name).second;
    }

    // The names are free to identify under again; a name already free is left so (the training
    // bot's, which no client may take).
    void release(std::initializer_list<std::string> released) {
        std::lock_guard lock(names_mutex);
        for (const std::string& n : released) names.erase(n);
    }

    // A few connections a turn of the serve loop, whose waiting clients' input is read between
    // turns: a flood that reconnects as fast as it is closed would otherwise make room, within one
    // turn, by closing every connection in the room, a client whose identification had arrived
    // but was not read yet among them (one of 5 keyed tries beside 520 flooding addresses).
    void accept_clients() {
        for (int accepted = 0; accepted < kAcceptsPerTurn; ++accepted) {
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
            const std::string peer = client_peer(addr), address = client_address(addr);
            const auto from_address =
                std::count_if(waiting.begin(), waiting.end(), [&](const Waiting& w) { return w.address == address; });
            if (static_cast<std::size_t>(from_address) >= o.max_per_address) {
                refusals.closed(address, peer + ": closed: " + std::to_string(from_address) +
                                             " connections from its address are waiting already",
                                "over the limit per address");
                continue;
            }
            if (waiting.size() >= o.max_waiting && !make_room()) {
                refusals.closed(address, peer + ": closed: " + std::to_string(waiting.size()) + " clients are waiting already",
                                "the waiting room full");
                continue;
            }
            const Clock::time_point by = Clock::now() + identify_time();
            waiting.push_back(
                {.connection = std::make_unique<ClientConnection>(std::move(fd), peer), .identify_by = by, .address = address});
        }
    }

    // Why a waiting client is closed, in full and in the short words `refusals` counts it under.
    struct Closing {
        std::string why, reason;
    };

    // What arrived from waiting client i: its identification, or why it is closed. Throws
    // ConnectionLost when its connection broke, tlv::ProtocolError when its bytes broke the protocol.
    std::optional<Closing> take_input(std::size_t i) {
        Waiting& w = waiting[i];
        const ClientConnection::Arrived arrived = w.connection->take_arrived();
        if (arrived == ClientConnection::Arrived::nothing) return std::nullopt;
        if (arrived == ClientConnection::Arrived::closed)
            return Closing{w.name.empty() ? closed_reason(w.connection->reader()) : "it left while waiting for a game",
                           "left"};
        if (!w.name.empty() || !w.held_name.empty())
            return Closing{"it sent a message while waiting for its game, out of turn", "out of turn"};
        const std::optional<tlv::Message> m = w.connection->reader().next();
        if (!m) return std::nullopt;
        if (m->type != tlv::Type::identification)
            return Closing{std::string("it sent '") + static_cast<char>(m->type) + "' before identifying with 'I'",
                           "protocol broken"};
        return identify(i, m->text);
    }

    std::optional<Closing> identify(std::size_t i, const std::string& identification) {
        Waiting& w = waiting[i];
        const std::string claimed = claimed_name(identification, o.keys ? &*o.keys : nullptr);
        if (o.keys)
            if (const std::optional<std::string> no = throttle.refusal(w.address, claimed))
                return Closing{terminal_line(*no), "not checked (secrets being guessed)"};
        std::string why;
        const std::optional<std::string> name = admitted_name(identification, o.keys ? &*o.keys : nullptr, why);
        if (!name) {
            if (o.keys) throttle.wrong(w.address, claimed, o.keys->contains(claimed));
            return Closing{why, "not admitted"};
        }
        // The training bot's games pair it with the client: a client under its name would play itself.
        if (o.training && name->starts_with(training_prefix))
            return Closing{"the name \"" + terminal_line(*name) + "\" begins with " + std::string(training_prefix) +
                               ", which the training bot's name does",
                           "not admitted"};
        if (w.connection->reader().held() > 0)
            return Closing{"it sent more after its identification, out of turn", "out of turn"};
        if (const std::optional<std::string> no = over_limits(w.address, *name))
            return Closing{*no, "over a limit of names or games"};
        w.held_name = *name;
        take_name(i);
        return std::nullopt;
    }

    // Why a client from `address` may not play under `name` now, or none: the growth of an open
    // arena is bounded per address and per name (docs/arena.md, "Limits").
    std::optional<std::string> over_limits(const std::string& address, const std::string& name) const {
        const std::string quoted = "\"" + terminal_line(name) + "\"";
        if (!schedule.lists(name)) {
            // Names admitted and waiting for their first game count too: many at once must not
            // carry the arena past its most when they are paired.
            std::set<std::string> unlisted;
            for (const Waiting& w : waiting)
                if (const std::string& n = w.name.empty() ? w.held_name : w.name; !n.empty() && !schedule.lists(n))
                    unlisted.insert(n);
            if (const std::size_t names = schedule.listed() + unlisted.size(); names >= o.max_names)
                return "the arena lists " + std::to_string(names) +
                       " names, those waiting for their first game among them, its most: " + quoted +
                       " is not taken (--max-names)";
            if (new_names.count(address) >= o.names_per_address)
                return "its address brought " + std::to_string(o.names_per_address) +
                       " new names to play in the last hour, its most: " + quoted + " is not taken (--names-per-address)";
        }
        if (games_of.count(name) >= o.games_per_name)
            return "the name " + quoted + " began " + std::to_string(o.games_per_name) +
                   " games in the last hour, its most (--games-per-name)";
        return std::nullopt;
    }

    // Client i, admitted under held_name, takes the name if it is free. A client still holding it
    // while waiting is let go if its connection is gone, or replaced: with keys (the key proves the
    // name), or without them by a connection from its own address (a client restarted on its
    // machine while the old one hangs). Else client i waits up to kNameGrace for it.
    void take_name(std::size_t i) {
        Waiting& w = waiting[i];
        bool claimed = claim(w.held_name);
        if (!claimed)
            for (std::size_t j = 0; j < waiting.size(); ++j) {
                if (j == i || waiting[j].name != w.held_name) continue;
                const bool alive = waiting[j].connection->alive();
                if (alive && !o.keys && waiting[j].address != w.address) break;
                close_client(j,
                             !alive   ? "its connection is gone"
                             : o.keys ? "a new connection proved its name's key"
                                      : "a new connection came under its name from its address",
                             "replaced");
                if (j < i) --i;
                claimed = claim(waiting[i].held_name);
                break;
            }
        Waiting& client = waiting[i];
        if (!claimed) {
            if (!client.waits_for_name) client.identify_by = Clock::now() + kNameGrace;
            client.waits_for_name = true;
            return;
        }
        client.name = std::exchange(client.held_name, {});
        client.identified_at = Clock::now();
        say(client.connection->peer() + " identified as " + terminal_line(client.name));
    }

    void close_late_identifications() {
        const Clock::time_point now = Clock::now();
        for (std::size_t i = waiting.size(); i-- > 0;) {
            const Waiting& w = waiting[i];
            if (!w.name.empty() || now < w.identify_by) continue;
            if (!w.held_name.empty())
                close_client(i, "the name \"" + terminal_line(w.held_name) + "\" is connected already", "name taken");
            else
                close_client(i, "no whole identification in time" +
                                    (w.connection->reader().held()
                                         ? " (" + std::to_string(w.connection->reader().held()) + " bytes of one)"
                                         : ""),
                             "no whole identification in time");
        }
    }

    // Checked before a client is paired: a connection gone while it waited is closed, its name
    // freed, unpaired.
    bool still_connected(std::size_t i) {
        if (waiting[i].connection->alive()) return true;
        close_client(i, "its connection is gone", "gone");
        return false;
    }

    // Whether client i's peer has answered since it was picked for a game, or kFreshAnswer
    // before: only then is it paired, so that a connection dead to the world is never paired
    // while TCP still thinks it stands. Unanswered, it is left out until its next probe's answer.
    bool heard_since_picked(std::size_t i) {
        Waiting& w = waiting[i];
        const Clock::time_point now = Clock::now();
        if (!w.picked_at || now - *w.picked_at > kPickFor) w.picked_at = now;
        const std::optional<std::chrono::milliseconds> silent = w.connection->silent_for();
        w.unheard = silent && now - *silent < *w.picked_at - kFreshAnswer;
        return !w.unheard;
    }

    // Waiting client i out of the waiting room into a game, counted: its connection and name.
    std::pair<std::unique_ptr<ClientConnection>, std::string> to_game(std::size_t i) {
        if (!schedule.lists(waiting[i].name)) new_names.add(waiting[i].address);
        games_of.add(waiting[i].name);
        std::pair taken{std::move(waiting[i].connection), waiting[i].name};
        waiting.erase(waiting.begin() + static_cast<std::ptrdiff_t>(i));
        return taken;
    }

    // Pairs waiting clients while games may start: the pair that has met least, then the
    // pair waiting longest.
    void start_games() {
        // A client picked before and not answered yet waits for its answer, out of the search.
        for (std::size_t i = 0; i < waiting.size(); ++i)
            if (waiting[i].unheard) heard_since_picked(i);
        while (static_cast<int>(running.size()) < o.jobs) {
            // Among the clients that identified: under a flood, most of those waiting have not.
            std::vector<std::size_t> ready;
            for (std::size_t i = 0; i < waiting.size(); ++i)
                if (!waiting[i].name.empty() && !waiting[i].unheard) ready.push_back(i);
            std::optional<std::pair<std::size_t, std::size_t>> best;
            std::tuple<int, Clock::time_point, Clock::time_point> best_rank{};
            for (std::size_t x = 0; x < ready.size(); ++x)
                for (std::size_t y = x + 1; y < ready.size(); ++y) {
                    const std::size_t i = ready[x], j = ready[y];
                    const Clock::time_point first = std::min(waiting[i].identified_at, waiting[j].identified_at);
                    const Clock::time_point second = std::max(waiting[i].identified_at, waiting[j].identified_at);
                    const std::tuple rank{schedule.met(waiting[i].name, waiting[j].name), first, second};
                    if (!best || rank < best_rank) best = std::pair{i, j}, best_rank = rank;
                }
            if (!best) break;
            if (!still_connected(best->second) || !still_connected(best->first)) continue;
            const bool heard_second = heard_since_picked(best->second);
            if (!heard_since_picked(best->first) || !heard_second) continue;
            // The later first, so that the earlier keeps its place.
            auto [b, name_b] = to_game(best->second);
            auto [a, name_a] = to_game(best->first);
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
        const auto due = training_due();
        if (!due || Clock::now() < due->second || !still_connected(due->first) || !heard_since_picked(due->first))
            return;
        auto [client, name] = to_game(due->first);
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

    // With --training, the one client that identified, if it waits alone, and when it plays the
    // training bot; none while every job runs a game (a game's end wakes the loop), so that the
    // loop does not wake for a due it cannot start.
    std::optional<std::pair<std::size_t, Clock::time_point>> training_due() const {
        std::size_t identified = 0, alone = 0;
        for (std::size_t i = 0; i < waiting.size(); ++i)
            if (!waiting[i].name.empty()) ++identified, alone = i;
        if (!o.training || identified != 1 || static_cast<int>(running.size()) >= o.jobs) return std::nullopt;
        return std::pair{alone, waiting[alone].identified_at + o.training->after};
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
            release({game.inputs.bots[0], game.inputs.bots[1]});
        }
    }

    // A game's thread.
    void play(std::uint64_t id, const ScheduledGame& game, std::array<std::unique_ptr<ClientConnection>, 2> seats,
              bool training, std::stop_token stop) {
        Finished f{id, game, std::nullopt, {}, {}, training};
        const auto free_names = [&] { release({game.inputs.bots[0], game.inputs.bots[1]}); };
        try {
            const StopEvent stop_event(stop);
            const ReplayHeader header{game.inputs.bots, game.inputs.hashes, o.settings.config, game.inputs.seed,
                                      o.settings.time_limit_ms};
            std::unique_ptr<Mover> bot = training ? o.training->player(bot_seed(o.settings.seed, game.key)) : nullptr;
            std::ostringstream log_text;
            GameLog game_log(log_text, header.bots);
            // Each client in its seat, a training game's bot in the other.
            const std::chrono::milliseconds time_limit(o.settings.time_limit_ms);
            std::array<std::optional<TlvSeat>, 2> tlv_seats;
            for (int s = 0; s < 2; ++s)
                if (seats[s]) tlv_seats[s].emplace(*seats[s], time_limit, stop_event);
            if (tlv_seats[0] && tlv_seats[1]) tlv_seats[0]->share_sends_with(*tlv_seats[1]);
            const auto mover = [&](int s) -> Mover& { return tlv_seats[s] ? *tlv_seats[s] : *bot; };
            f.played = play_and_record(mover(0), mover(1), header, game_log, stop);
            f.log = log_text.str();
            // Free to identify again before they hear of the end, so that a client that reconnects
            // at once is not refused as connected already.
            free_names();
            for (std::optional<TlvSeat>& s : tlv_seats)
                if (s) s->bye(f.played->record.result);
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
                if (pages && !f.training) pages->stored(record, std::move(*f.played));
            } catch (const std::exception& e) {
                of.end(g, false);
                say(pair + ": not stored: " + e.what());
            }
        }
    }

    void serve(std::stop_token stop) {
        const std::stop_callback forward(stop, [this] { games_stop.request_stop(); });
        const StopEvent stop_event(games_stop.get_token());
        // Waiting clients hold a descriptor each: allow as many as the hard limit lets.
        if (rlimit limit{}; ::getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < limit.rlim_max) {
            limit.rlim_cur = limit.rlim_max;
            ::setrlimit(RLIMIT_NOFILE, &limit);
        }
        while (!stop_event.stopped()) {
            const Clock::time_point now = Clock::now();
            const bool accepting = now >= accept_paused_until;
            std::vector<pollfd> fds = {{accepting ? listener.get() : -1, POLLIN, 0},
                                       {stop_event.fd(), POLLIN, 0},
                                       {wake.get(), POLLIN, 0}};
            // The first deadline the loop must wake for, if any.
            Clock::time_point next = accepting ? Clock::time_point::max() : accept_paused_until;
            if (const auto due = training_due()) next = std::min(next, due->second);
            if (const std::optional<Clock::time_point> due = refusals.next_flush()) next = std::min(next, *due);
            for (const Waiting& w : waiting) {
                fds.push_back({w.connection->fd(), POLLIN, 0});
                if (w.name.empty()) next = std::min(next, w.identify_by);
                // A probe's answer wakes nothing: while a pick waits for one, the loop looks again.
                else if (w.unheard && now - *w.picked_at <= kPickFor) next = std::min(next, now + kAnswerPoll);
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
            // From the last, so that closing one leaves the others' places in `fds` as they were. An
            // error of one client's input closes that client, never the arena.
            for (std::size_t i = waiting.size(); i-- > 0;) {
                if (!fds[3 + i].revents) continue;
                std::optional<Closing> closing;
                try {
                    closing = take_input(i);
                } catch (const ConnectionLost& e) {
                    closing = Closing{e.what(), "broken"};
                } catch (const tlv::ProtocolError& e) {
                    closing = Closing{std::string("it sent ") + e.what(), "protocol broken"};
                } catch (const std::exception& e) {
                    closing = Closing{std::string("its input could not be handled: ") + e.what(), "failed"};
                }
                if (closing && i < waiting.size()) close_client(i, closing->why, closing->reason);
            }
            if (fds[0].revents) accept_clients();
            // The clients waiting for a name held when they identified take it once it is free.
            for (std::size_t i = waiting.size(); i-- > 0;)
                if (!waiting[i].held_name.empty()) take_name(i);
            close_late_identifications();
            start_games();
            refusals.flush();
        }
        for (std::size_t i = waiting.size(); i-- > 0;) close_client(i, "the arena is stopping", "the arena stopping");
        refusals.flush(Clock::now(), true);
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
    std::uint64_t games_begun = 0;
    Clock::time_point accept_paused_until{};
    std::mutex names_mutex;
    std::set<std::string> names;  // under names_mutex: connected under them, waiting or playing
    std::mutex mutex;
    std::vector<Finished> finished;  // under mutex
    UniqueFd wake;                   // readable when `finished` holds any
    RefusalLog refusals;
    KeyThrottle throttle;
    WindowCounts new_names{std::chrono::hours(1)};  // by address: new names that began a game
    WindowCounts games_of{std::chrono::hours(1)};   // by name: games begun
    std::optional<ArenaPages> pages;                // with an observer
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
