// A tlv bot's game (docs/protocol.md): its process, started by its launcher with the address of
// a socket listening in its network namespace, connects once, and the runner then speaks the
// arena's conversation with it (docs/arena.md): I from the bot, S, per generation T and its M,
// the opponent's M of the cells placed and G, B at the end. The bot is stopped between its turns.
#pragma once

#include "runner/bots/connection.hpp"
#include "runner/game/game_loop.hpp"
#include "runner/sys/launcher.hpp"
#include "runner/sys/stop_event.hpp"

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gol::runner {

// `command` with {host}, {port}, {width} and {height} replaced, wherever they appear in an argument.
std::vector<std::string> tlv_command(std::vector<std::string> command, const std::string& host, int port, int width,
                                     int height);

class TlvBot : public GameObserver {
public:
    // A bot whose process `launcher` (which outlives this) runs; nothing starts until start().
    explicit TlvBot(Launcher& launcher);
    ~TlvBot() override;
    TlvBot(const TlvBot&) = delete;
    TlvBot& operator=(const TlvBot&) = delete;

    // Why the bot is out of the game (it never connected, broke the protocol, was too slow or
    // left), in plain words; nullopt while it plays.
    const std::optional<std::string>& lost() const { return lost_; }
    // Its I, as it sent it.
    const std::string& identification() const { return identification_; }

    // Its seat and its opponent's name, sent as S before its first T.
    void begin(int seat, const std::string& opponent);
    bool began() const { return seat_ != 0; }

    // Starts the bot's process from `spec` once its launcher has a socket to listen on: the
    // command's placeholders replaced (tlv_command), GOL_ARENA_HOST and GOL_ARENA_PORT (and
    // GOL_BOARD_WIDTH, GOL_BOARD_HEIGHT) set. It must connect and send its I within `limit`;
    // lost() says why not, when it did not.
    void start(CommandSpec spec, int width, int height, std::chrono::milliseconds limit);
    bool started() const { return started_; }

    struct Turn {
        std::vector<Cell> cells;
        bool timed_out = false;  // lost(): no whole M within the limit
        std::chrono::microseconds elapsed{0};
        Launcher::Paused paused;  // its CPU time during the turn
    };
    // The bot continued, what came since its last turn sent, then T; its M within `limit`; the
    // bot stopped again. After lost() nothing is sent.
    Turn turn(std::chrono::milliseconds limit);

    // The opponent's placed cells and each generation, sent with the next T.
    void on_move(int tick, int seat, const MoveReport& move) override;
    void on_generation(int generation, std::int64_t cells1, std::int64_t cells2) override;

    // B with the game's counts, which the bot is given a moment to read; then it is ended.
    void bye(const GameResult& result);

    // `why` the bot is out (lost()), and its process ended.
    void lose(std::string why);

private:

    Launcher& launcher_;
    StopEvent never_;  // the connection's waits are bounded by their deadlines alone
    std::optional<ClientConnection> connection_;
    std::string identification_;
    std::string pending_;  // S, M and G to send with the next T
    int seat_ = 0;
    bool started_ = false;
    std::optional<std::string> lost_;
};

}  // namespace gol::runner
