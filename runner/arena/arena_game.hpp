// One arena game between two connected clients (docs/arena.md): the game loop every game uses
// plays it, each seat's moves come over its connection, and each placed move and generation is
// relayed to the clients, which keep their own boards.
#pragma once

#include "runner/tlv/connection.hpp"
#include "runner/game/play_and_record.hpp"

#include <array>
#include <chrono>
#include <memory>

namespace gol::runner {

class ClientSeat;

class ArenaGame {
public:
    // `seats` by seat; they must outlive the game. A seat without a connection is played by
    // `bot` (a training game's, --training).
    ArenaGame(const std::array<ClientConnection*, 2>& seats, ReplayHeader header, std::chrono::milliseconds time_limit,
              const StopEvent& stop, Mover* bot = nullptr);
    ~ArenaGame();
    ArenaGame(const ArenaGame&) = delete;
    ArenaGame& operator=(const ArenaGame&) = delete;

    // Sends each client `S` and plays the game, telling `also` of it too. A client that breaks
    // the protocol, is too slow or leaves forfeits its move as `disconnected`, which loses the
    // game. Throws GameInterrupted once `stop` is.
    PlayedGame play(GameObserver& also);
    // Sends `B` with `result`'s counts to each client still connected.
    void bye(const GameResult& result);

private:
    ReplayHeader header_;
    const StopEvent& stop_;
    std::array<std::unique_ptr<ClientSeat>, 2> seats_;  // null for the bot's seat
    Mover* bot_;
};

}  // namespace gol::runner
