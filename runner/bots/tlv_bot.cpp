#include "runner/bots/tlv_bot.hpp"

#include "runner/tlv/tlv.hpp"

#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <stdexcept>

namespace gol::runner {

namespace {

using Clock = ClientConnection::Clock;

// How long a bot has to read its B and leave before it is ended.
constexpr auto kByeLimit = std::chrono::seconds(1);

const std::string kHost = "127.0.0.1";

std::chrono::microseconds since(Clock::time_point start) {
    return std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - start);
}

// Whether `listener` has a connection waiting by `deadline`.
bool connection_by(int listener, Clock::time_point deadline) {
    for (;;) {
        const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now()).count();
        if (left <= 0) return false;
        pollfd p{listener, POLLIN, 0};
        const int n = ::poll(&p, 1, static_cast<int>(std::min<long long>(left, 60'000)));
        if (n > 0) return true;
        if (n < 0 && errno != EINTR) return false;
    }
}

}  // namespace

std::vector<std::string> tlv_command(std::vector<std::string> command, const std::string& host, int port, int width,
                                     int height) {
    const std::pair<std::string, std::string> fields[] = {
        {"{host}", host}, {"{port}", std::to_string(port)}, {"{width}", std::to_string(width)},
        {"{height}", std::to_string(height)}};
    for (std::string& argument : command)
        for (const auto& [field, value] : fields)
            for (std::size_t at = 0; (at = argument.find(field, at)) != std::string::npos; at += value.size())
                argument.replace(at, field.size(), value);
    return command;
}

TlvBot::TlvBot(Launcher& launcher, CommandSpec spec, const MoveRules& rules)
    : launcher_(launcher), spec_(std::move(spec)), rules_(rules), never_(std::stop_token{}) {}

std::string TlvBot::start(int width, int height, Clock::time_point deadline) {
    started_ = true;
    Launcher::Listener listener = launcher_.listen();
    const std::string port = std::to_string(listener.port);
    CommandSpec spec = spec_;
    spec.argv = tlv_command(std::move(spec.argv), kHost, listener.port, width, height);
    spec.env->insert(spec.env->end(), {"GOL_ARENA_HOST=" + kHost, "GOL_ARENA_PORT=" + port,
                                       "GOL_BOARD_WIDTH=" + std::to_string(width),
                                       "GOL_BOARD_HEIGHT=" + std::to_string(height)});
    Launcher::Started started = launcher_.start(spec);
    if (!started.error.empty()) {
        lost_ = std::move(started.error);
        return "";
    }
    streams_ = std::move(started.streams);
    resume();
    if (!connection_by(listener.fd.get(), deadline)) {
        lose("the bot did not connect to " + kHost + ":" + port + " within " +
             std::to_string(rules_.first.wall_limit.count()) +
             " ms of its start (its run's {host} and {port}, or GOL_ARENA_HOST and GOL_ARENA_PORT, give the address)");
        return "";
    }
    UniqueFd accepted(::accept4(listener.fd.get(), nullptr, nullptr, SOCK_CLOEXEC));
    listener.fd.reset();
    if (!accepted) {
        lose("its connection could not be accepted");
        return "";
    }
    connection_.emplace(std::move(accepted), "the bot");
    std::string identification;
    try {
        tlv::Message first = connection_->receive(deadline, never_);
        if (first.type != tlv::Type::identification)
            throw ConnectionLost(std::string("its first message was '") + static_cast<char>(first.type) +
                                 "', not its identification I");
        identification = std::move(first.text);
    } catch (const ConnectionLost& e) {
        lose(std::string("before its first turn: ") + e.what());
        return "";
    }
    MoveOutcome ignored;
    if (!pause(ignored)) lose("its process ended after its I");
    return identification;
}

TlvBot::~TlvBot() { end(); }

void TlvBot::lose(std::string why) {
    lost_ = std::move(why);
    connection_.reset();
    end();
}

bool TlvBot::resume() { return !ended_ && launcher_.release(); }

bool TlvBot::pause(MoveOutcome& turn) {
    pipes::Streams& s = *streams_;
    s.err_buf.clear();
    s.err_truncated = false;
    pump(s, -1, Clock::now(), [] { return false; });
    s.out_buf.clear();
    turn.err += s.err_buf;
    const Launcher::Held held = launcher_.hold();
    turn.cpu = held.cpu;
    turn.out_of_memory = held.out_of_memory;
    ended_ = held.ended.has_value();
    return !ended_;
}

void TlvBot::end(std::chrono::milliseconds grace) {
    if (streams_) launcher_.kill(grace);
    streams_.reset();
}

void TlvBot::begin(int seat, const std::string& opponent) {
    seat_ = seat;
    std::string start;
    try {
        start = tlv::start(opponent);
    } catch (const std::invalid_argument&) {
        // A name S cannot carry (over 250 bytes): the bot is told less, not nothing.
        start = tlv::start("opponent");
    }
    pending_.insert(0, start);
}

MoveReport TlvBot::move(const Board& board, int seat) {
    if (seat_ == 0) begin(seat, "check");
    const ForfeitRules& rules = rules_.of(!started_);
    // Its start and its I count against its first move's time.
    const Clock::time_point start = Clock::now(), deadline = start + rules.wall_limit;
    MoveOutcome outcome;
    if (!started_) {
        const std::string identification = this->start(board.width(), board.height(), deadline);
        if (!lost_) outcome.err = "the bot identified itself as \"" + identification + "\"\n";
    }
    bool turn = false;  // T was sent
    if (!lost_) {
        turn = resume();
        if (!turn) lose("its process ended between its turns");
    }
    std::vector<Cell> cells;
    std::string broken;  // how the connection was lost during the turn
    if (turn) try {
            cells = connection_->ask_move(pending_, deadline, never_);
            pending_.clear();
        } catch (const ConnectionLost& e) {
            broken = e.what();
            if (Clock::now() >= deadline) outcome.kind = MoveOutcome::Kind::timed_out;
        }
    outcome.elapsed = since(start);
    if (turn) {
        const bool running = pause(outcome);
        if (!broken.empty()) lose(std::move(broken));
        else if (!running) lose("its process ended after its M");
    }
    MoveReport report;
    report.startup = rules.startup;
    report.elapsed = outcome.elapsed;
    report.err = outcome.err;
    std::optional<Forfeit> forfeit = lost_ && outcome.kind != MoveOutcome::Kind::timed_out
                                         ? Forfeit{ForfeitKind::disconnected, *lost_}
                                         : move_forfeit(outcome, rules);
    if (!forfeit) {
        report.cpu = outcome.cpu;
        report.cells = std::move(cells);
        return report;
    }
    // 2014's rule: a bot that breaks the protocol or its limits is disconnected and loses.
    forfeit->kind = ForfeitKind::disconnected;
    if (!lost_) lose(forfeit->detail);
    report.forfeit = std::move(forfeit);
    return report;
}

void TlvBot::on_move(int, int seat, const MoveReport& move) {
    if (seat != seat_ && move.ok()) pending_ += tlv::move(move.cells);
}

void TlvBot::on_generation(int, std::int64_t, std::int64_t) { pending_ += tlv::generation(); }

void TlvBot::bye(const GameResult& result) {
    if (!started_ || lost_ || seat_ == 0) return;
    const auto own = static_cast<std::uint32_t>(result.cells[seat_ - 1]);
    const auto other = static_cast<std::uint32_t>(result.cells[2 - seat_]);
    const Clock::time_point deadline = Clock::now() + kByeLimit;
    if (resume()) try {
            connection_->send(pending_ + tlv::bye(own, other), deadline, never_);
            // Until it closes: whatever else it sends is of no more use.
            for (;;) connection_->receive(deadline, never_);
        } catch (const ConnectionLost&) {
        }
    lost_ = "the game is over";
    connection_.reset();
    // What it does after B (writes a log, exits) it may finish, within the same second.
    end(std::max(std::chrono::milliseconds(0),
                                      std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now())));
}

}  // namespace gol::runner
