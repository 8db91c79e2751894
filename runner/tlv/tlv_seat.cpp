#include "runner/tlv/tlv_seat.hpp"

#include "runner/tlv/tlv.hpp"

#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <array>
#include <stdexcept>
#include <utility>

namespace gol::runner {

namespace {

using Clock = TlvSeat::Clock;

// How long a local bot has to read its B and leave before it is ended.
constexpr auto kByeLimit = std::chrono::seconds(1);

const std::string kHost = "127.0.0.1";

}  // namespace

TlvSeat::TlvSeat(ClientConnection& connection, std::chrono::milliseconds time_limit, const StopEvent& stop)
    : first_limit_(time_limit), later_limit_(time_limit), stop_(stop), connection_(&connection) {}

TlvSeat::TlvSeat(TlvProcess process, std::chrono::milliseconds first_limit, std::chrono::milliseconds later_limit)
    : process_(std::move(process)),
      first_limit_(first_limit),
      later_limit_(later_limit),
      never_(std::in_place, std::stop_token{}),
      stop_(*never_) {}

TlvSeat::~TlvSeat() { end(); }

void TlvSeat::begin(int seat, std::string_view opponent) {
    seat_ = seat;
    std::string start;
    try {
        start = tlv::start(opponent);
    } catch (const std::invalid_argument&) {
        // A name S cannot carry (over 250 bytes): the client is told less, not nothing.
        start = tlv::start("opponent");
    }
    tell(start);
}

void TlvSeat::share_sends_with(TlvSeat& other) {
    partner_ = &other;
    other.partner_ = this;
}

void TlvSeat::tell(const std::string& bytes) {
    if (lost_) return;
    pending_ += bytes;
    if (!process_ && !partner_) flush();
}

void TlvSeat::flush() {
    if (lost_ || pending_.empty()) return;
    try {
        connection_->send(pending_, Clock::now() + later_limit_, stop_);
    } catch (const ConnectionLost& e) {
        lost_ = e.what();
    }
    pending_.clear();
}

void TlvSeat::on_move(int, int seat, const MoveReport& move) {
    if (seat != seat_ && move.ok()) tell(tlv::move(move.cells));
}

void TlvSeat::on_generation(int, std::int64_t, std::int64_t) { tell(tlv::generation()); }

MoveReport TlvSeat::move(const Board& board, int seat, int) {
    if (seat_ == 0) begin(seat, "check");
    const bool first = !asked_;
    asked_ = true;
    const Clock::time_point start = Clock::now(), deadline = start + (first ? first_limit_ : later_limit_);
    MoveReport report;
    if (first && process_) {
        // Its start and its I count against its first move's time.
        std::string identified = this->start(board.width(), board.height(), deadline);
        if (!lost_) report.err = std::move(identified);
    }
    bool turn = !lost_;
    if (turn && process_ && !(turn = release())) lose("its process ended between its turns");
    std::string broken;  // how the connection was lost during the turn
    bool timed_out = false;
    if (turn) try {
            // What was told and T, and its one M by the deadline; anything before the T came out of turn.
            const ClientConnection::Arrived early = connection_->take_arrived();
            if (early == ClientConnection::Arrived::closed) throw ConnectionLost(closed_reason(connection_->reader()));
            if (early == ClientConnection::Arrived::bytes || connection_->reader().held() > 0)
                throw ConnectionLost("it sent a message out of turn, before its T");
            connection_->send(pending_ + tlv::turn(), deadline, stop_);
            pending_.clear();
            // Its opponent is told what it has not been before this turn waits.
            if (partner_) partner_->flush();
            tlv::Message m = connection_->receive(deadline, stop_);
            if (m.type != tlv::Type::move)
                throw ConnectionLost(std::string("it answered T with '") + static_cast<char>(m.type) + "', not 'M'");
            report.cells = std::move(m.cells);
        } catch (const ConnectionLost& e) {
            broken = e.what();
            timed_out = Clock::now() >= deadline;
        }
    report.elapsed = std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - start);
    bool out_of_memory = false;
    if (turn && process_ && !hold(report, out_of_memory) && broken.empty()) broken = "its process ended after its M";
    if (!broken.empty()) lose(std::move(broken));
    std::optional<Forfeit> forfeit;
    if (process_) {
        std::optional<Forfeit> limit = process_->judge(report, first, timed_out, out_of_memory);
        // Its time's words are its limits' (a local bot's own buffer may hold its M); other
        // losses keep their own.
        if (timed_out || !lost_) forfeit = std::move(limit);
    }
    if (!forfeit && lost_) forfeit = Forfeit{ForfeitKind::disconnected, *lost_};
    if (!forfeit) return report;
    // 2014's rule: a client that breaks the protocol or its limits is disconnected and loses.
    forfeit->kind = ForfeitKind::disconnected;
    if (!lost_) lose(forfeit->detail);
    report.cells.clear();
    report.forfeit = std::move(forfeit);
    return report;
}

void TlvSeat::bye(const GameResult& result) {
    if (lost_ || !connection_) return;
    const auto own = static_cast<std::uint32_t>(result.cells[seat_ - 1]);
    const auto other = static_cast<std::uint32_t>(result.cells[2 - seat_]);
    const Clock::time_point deadline = Clock::now() + (process_ ? kByeLimit : later_limit_);
    if (!process_ || release()) try {
            connection_->send(pending_ + tlv::bye(own, other), deadline, stop_);
            // A local bot's, until it closes: whatever else it sends is of no more use.
            while (process_) connection_->receive(deadline, stop_);
        } catch (const ConnectionLost&) {
        }
    lost_ = "the game is over";
    // What a local bot does after B (writes a log, exits) it may finish, within the same second.
    end(std::max(std::chrono::milliseconds(0), std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now())));
}

std::string TlvSeat::start(int width, int height, Clock::time_point deadline) {
    Launcher& launcher = process_->launcher;
    Launcher::Listener listener = launcher.listen();
    const std::string port = std::to_string(listener.port);
    CommandSpec spec = process_->spec;
    // Each in its variable, and in place of its field wherever that appears in an argument.
    const std::array<std::array<std::string, 3>, 4> fields = {{{"{host}", "GOL_ARENA_HOST", kHost},
                                                                {"{port}", "GOL_ARENA_PORT", port},
                                                                {"{width}", "GOL_BOARD_WIDTH", std::to_string(width)},
                                                                {"{height}", "GOL_BOARD_HEIGHT", std::to_string(height)}}};
    for (const auto& [field, variable, value] : fields) {
        spec.env->push_back(variable + "=" + value);
        for (std::string& argument : spec.argv)
            for (std::size_t at = 0; (at = argument.find(field, at)) != std::string::npos; at += value.size())
                argument.replace(at, field.size(), value);
    }
    Launcher::Started started = launcher.start(spec);
    if (!started.error.empty()) {
        lost_ = std::move(started.error);
        return "";
    }
    streams_ = std::move(started.streams);
    release();
    bool connected = false;
    try {
        connected = wait_for(listener.fd.get(), POLLIN, deadline, stop_);
    } catch (const ConnectionLost&) {
    }
    if (!connected) {
        lose("the bot did not connect to " + kHost + ":" + port + " within " + std::to_string(first_limit_.count()) +
             " ms of its start (its run's {host} and {port}, or GOL_ARENA_HOST and GOL_ARENA_PORT, give the address)");
        return "";
    }
    UniqueFd accepted(::accept4(listener.fd.get(), nullptr, nullptr, SOCK_CLOEXEC));
    listener.fd.reset();
    if (!accepted) {
        lose("its connection could not be accepted");
        return "";
    }
    connection_ = &own_.emplace(std::move(accepted), "the bot");
    std::string identification;
    try {
        tlv::Message first = connection_->receive(deadline, stop_);
        if (first.type != tlv::Type::identification)
            throw ConnectionLost(std::string("its first message was '") + static_cast<char>(first.type) +
                                 "', not its identification I");
        identification = std::move(first.text);
    } catch (const ConnectionLost& e) {
        lose(std::string("before its first turn: ") + e.what());
        return "";
    }
    MoveReport ignored;
    bool out_of_memory = false;
    if (!hold(ignored, out_of_memory)) lose("its process ended after its I");
    return "the bot identified itself as \"" + identification + "\"\n";
}

bool TlvSeat::release() { return !ended_ && process_->launcher.release(); }

bool TlvSeat::hold(MoveReport& turn, bool& out_of_memory) {
    pipes::Streams& s = *streams_;
    s.err_buf.clear();
    s.err_truncated = false;
    pump(s, -1, Clock::now(), [] { return false; });
    s.out_buf.clear();
    turn.err += s.err_buf;
    const Launcher::Held held = process_->launcher.hold();
    turn.cpu = held.cpu;
    out_of_memory = held.out_of_memory;
    ended_ = held.ended.has_value();
    return !ended_;
}

void TlvSeat::lose(std::string why) {
    lost_ = std::move(why);
    end();
}

void TlvSeat::end(std::chrono::milliseconds grace) {
    if (streams_) process_->launcher.kill(grace);
    streams_.reset();
}

}  // namespace gol::runner
