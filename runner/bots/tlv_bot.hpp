// A tlv bot's game (docs/protocol.md): its process, started by its launcher with the address of
// a socket listening in its network namespace, connects once, and the runner then speaks the
// arena's conversation with it (docs/arena.md): I from the bot, S, per generation T and its M,
// the opponent's M of the cells placed and G, B at the end. The bot is stopped between its turns.
#pragma once

#include "runner/tlv/connection.hpp"
#include "runner/bots/move_forfeit.hpp"
#include "runner/game/game_loop.hpp"
#include "runner/sys/launcher.hpp"
#include "runner/sys/pipe_pump.hpp"
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
    // A bot whose process `launcher` runs from `spec`; nothing starts until its first move.
    // `launcher` and `rules` outlive this.
    TlvBot(Launcher& launcher, CommandSpec spec, const MoveRules& rules);
    ~TlvBot() override;
    TlvBot(const TlvBot&) = delete;
    TlvBot& operator=(const TlvBot&) = delete;

    // Its seat and its opponent's name, sent as S before its first T.
    void begin(int seat, const std::string& opponent);

    // A turn: at the first, its process started and connected (start); then the bot continued,
    // what came since its last turn sent, T, and its M within the move's time; the bot held
    // again. Every forfeit disconnects it, and it loses the game (docs/protocol.md). A move
    // outside a game (check) plays "check" as `seat`.
    MoveReport move(const Board& board, int seat);

    // The opponent's placed cells and each generation, sent with the next T.
    void on_move(int tick, int seat, const MoveReport& move) override;
    void on_generation(int generation, std::int64_t cells1, std::int64_t cells2) override;

    // B with the game's counts, which the bot is given a moment to read; then it is ended.
    void bye(const GameResult& result);

private:
    // Starts the bot's process once its launcher has a socket to listen on: the command's
    // placeholders replaced (tlv_command), GOL_ARENA_HOST and GOL_ARENA_PORT (and
    // GOL_BOARD_WIDTH, GOL_BOARD_HEIGHT) set. It must connect and send its I by `deadline`;
    // lost_ says why not, when it did not. Its I, as it sent it.
    std::string start(int width, int height, ClientConnection::Clock::time_point deadline);
    // `why` the bot is out (lost_), and its process ended.
    void lose(std::string why);
    // Continues the bot's process for its turn; false when it has ended.
    bool resume();
    // Holds it after its turn, with its CPU time since resume() and its stderr meanwhile added
    // to `turn`: its stdout and stderr are not its channel, but must not fill and block it
    // (stdout is read and dropped). False when it has ended.
    bool pause(MoveOutcome& turn);
    // Ends its process, once `grace` has passed or it has ended by itself.
    void end(std::chrono::milliseconds grace = std::chrono::milliseconds(0));

    Launcher& launcher_;
    CommandSpec spec_;
    const MoveRules& rules_;
    StopEvent never_;  // the connection's waits are bounded by their deadlines alone
    std::optional<ClientConnection> connection_;
    std::optional<pipes::Streams> streams_;  // its process's, while it runs
    bool ended_ = false;  // its process ended, as its hold found
    std::string pending_;  // S, M and G to send with the next T
    int seat_ = 0;
    bool started_ = false;
    // Why the bot is out of the game (it never connected, broke the protocol, was too slow or
    // left), in plain words; nullopt while it plays.
    std::optional<std::string> lost_;
};

}  // namespace gol::runner
