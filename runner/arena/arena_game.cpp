#include "runner/arena/arena_game.hpp"

#include "runner/game/game_stats.hpp"

#include <optional>
#include <string>

namespace gol::runner {

using Clock = ClientConnection::Clock;

// A client in its seat: its move is the `M` it answers `T` with, within the time limit.
class ClientSeat : public Mover {
public:
    ClientSeat(ClientConnection& connection, std::chrono::milliseconds time_limit, const StopEvent& stop)
        : connection_(connection), time_limit_(time_limit), stop_(stop) {}

    MoveReport move(const Board&, int, int) override {
        MoveReport report;
        const Clock::time_point start = Clock::now();
        if (!lost_) try {
                report.cells = connection_.ask_move("", start + time_limit_, stop_);
            } catch (const ConnectionLost& e) {
                lost_ = e.what();
            }
        report.elapsed = std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - start);
        if (lost_) {
            report.cells.clear();
            report.forfeit = Forfeit{ForfeitKind::disconnected, *lost_};
        }
        return report;
    }

    // Sends `bytes` unless the client is lost already. One that does not take them within the
    // time limit is lost: its next move is the forfeit.
    void tell(const std::string& bytes) {
        if (lost_) return;
        try {
            connection_.send(bytes, Clock::now() + time_limit_, stop_);
        } catch (const ConnectionLost& e) {
            lost_ = e.what();
        }
    }

    bool lost() const { return lost_.has_value(); }

private:
    ClientConnection& connection_;
    std::chrono::milliseconds time_limit_;
    const StopEvent& stop_;
    std::optional<std::string> lost_;
};

namespace {

// Tells each client what the other placed, and each generation.
class Relay : public GameObserver {
public:
    explicit Relay(std::array<ClientSeat*, 2> seats) : seats_(seats) {}
    void on_move(int, int seat, const MoveReport& move) override {
        if (move.ok() && seats_[2 - seat]) seats_[2 - seat]->tell(tlv::move(move.cells));
    }
    void on_generation(int, std::int64_t, std::int64_t) override {
        for (ClientSeat* s : seats_)
            if (s) s->tell(tlv::generation());
    }

private:
    std::array<ClientSeat*, 2> seats_;
};

}  // namespace

ArenaGame::ArenaGame(const std::array<ClientConnection*, 2>& seats, ReplayHeader header,
                     std::chrono::milliseconds time_limit, const StopEvent& stop, Mover* bot)
    : header_(std::move(header)), stop_(stop), bot_(bot) {
    for (int s = 0; s < 2; ++s)
        if (seats[s]) seats_[s] = std::make_unique<ClientSeat>(*seats[s], time_limit, stop);
}

ArenaGame::~ArenaGame() = default;

PlayedGame ArenaGame::play(GameObserver& also) {
    for (int s = 0; s < 2; ++s)
        if (seats_[s]) seats_[s]->tell(tlv::start(header_.bots[1 - s]));
    Relay relay({seats_[0].get(), seats_[1].get()});
    Observers all({&relay, &also});
    const auto mover = [&](int s) -> Mover& { return seats_[s] ? *seats_[s] : *bot_; };
    return play_and_record(mover(0), mover(1), header_, all, stop_.token());
}

void ArenaGame::bye(const GameResult& result) {
    const std::array<std::int64_t, 2>& cells = result.cells;
    for (int s = 0; s < 2; ++s)
        if (seats_[s])
            seats_[s]->tell(tlv::bye(static_cast<std::uint32_t>(cells[s]), static_cast<std::uint32_t>(cells[1 - s])));
}

}  // namespace gol::runner
