// One seat of the 2014 arena's conversation (docs/arena.md), which the arena's clients and a
// local tlv bot (docs/protocol.md) both play: its move is the M its client answers each T with,
// and it is told its game as it goes: S with its opponent's name, the opponent's placed cells (M)
// and each generation (G), and B at the end. A remote client is told at once, or, when its
// opponent is a client too, before the game's thread next waits (share_sends_with). A local bot's
// process, which its launcher starts at its first turn with the address of a socket listening in
// its network namespace, is held between its turns, and told at its next one. A client that
// breaks the protocol, is too slow or leaves forfeits as `disconnected`, which loses the game.
#pragma once

#include "runner/game/game_loop.hpp"
#include "runner/sandbox/launcher.hpp"
#include "runner/sys/pipe_pump.hpp"
#include "runner/sys/stop_event.hpp"
#include "runner/tlv/connection.hpp"

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace gol::runner {

// A local tlv bot's process: what its launcher runs (`spec`'s {host}, {port}, {width} and
// {height} replaced in its arguments, GOL_ARENA_HOST, GOL_ARENA_PORT, GOL_BOARD_WIDTH and
// GOL_BOARD_HEIGHT set), and the judge of its limits (bots/move_forfeit.hpp): the forfeit a turn
// earns from its report (time, CPU time), whether it was its first, whether its M was not all
// there in time, and whether the kernel killed one of its processes for memory. The judge marks
// the report's start-up allowance.
struct TlvProcess {
    Launcher& launcher;
    CommandSpec spec;
    std::function<std::optional<Forfeit>(MoveReport& turn, bool first, bool timed_out, bool out_of_memory)> judge;
};

class TlvSeat : public Mover, private GameObserver {
public:
    using Clock = ClientConnection::Clock;
    // A remote client's seat, each of its turns and sends within `time_limit`; `connection` and
    // `stop` outlive it.
    TlvSeat(ClientConnection& connection, std::chrono::milliseconds time_limit, const StopEvent& stop);
    // A local bot's, whose first turn (its start, its connection and its I counted) has
    // `first_limit` and the others `later_limit`; nothing starts until its first turn, and its
    // process ends with the seat. The launcher outlives it.
    TlvSeat(TlvProcess process, std::chrono::milliseconds first_limit, std::chrono::milliseconds later_limit);
    ~TlvSeat() override;
    TlvSeat(const TlvSeat&) = delete;
    TlvSeat& operator=(const TlvSeat&) = delete;

    // Two clients' seats of one game: what each is told waits for the next wait of the game's
    // thread, which is in one of their turns. So a client's opponent's M and the G after it go
    // with its own T in one send, or before its opponent's turn waits for its M: three sends a
    // generation where there were six, and no client told later than the server next waits.
    void share_sends_with(TlvSeat& other);
    // S, with `opponent` (or "opponent", for a name S cannot carry).
    void begin(int seat, std::string_view opponent) override;
    GameObserver* watcher() override { return this; }
    // A turn: what it was told since its last turn (a local bot's process continued first), T,
    // and its M within the turn's time. Every forfeit disconnects it. A move outside a game (a
    // check) plays "check" as `seat`. Throws GameInterrupted once the stop is.
    MoveReport move(const Board& board, int seat, int tick) override;
    // B with `result`'s counts, unless the client is lost. A local bot is given a second to
    // read it and leave, and then ended.
    void bye(const GameResult& result);

private:
    void on_move(int tick, int seat, const MoveReport& move) override;
    void on_generation(int generation, std::int64_t cells1, std::int64_t cells2) override;
    // Sends `bytes`, after anything not yet sent, to a remote client now (flush), or with what
    // follows when it shares its sends; a local bot's wait for its next turn.
    void tell(const std::string& bytes);
    // Sends a remote client what it was told and has not been sent, within its time. A client
    // that does not take it is lost.
    void flush();
    // A local bot's process started and connected by `deadline`; what its I said, for its first
    // move's report, or lost_ says why not.
    std::string start(int width, int height, Clock::time_point deadline);
    // Continues a local bot's process for its turn; false when it has ended.
    bool release();
    // Holds it after its turn, with its CPU time and its stderr meanwhile in `turn`: its stdout
    // and stderr are not its channel, but must not fill and block it (stdout is read and
    // dropped). False when it has ended.
    bool hold(MoveReport& turn, bool& out_of_memory);
    // `why` the client is out of the game; a local bot's process ended.
    void lose(std::string why);
    // Ends a local bot's process, once `grace` has passed or it has ended by itself.
    void end(std::chrono::milliseconds grace = std::chrono::milliseconds(0));

    std::optional<TlvProcess> process_;  // a local bot's
    std::chrono::milliseconds first_limit_, later_limit_;
    std::optional<StopEvent> never_;  // a local bot's waits are bounded by their deadlines alone
    const StopEvent& stop_;
    std::optional<ClientConnection> own_;  // a local bot's connection, once it connected
    ClientConnection* connection_ = nullptr;
    std::optional<pipes::Streams> streams_;  // a local bot's process's, while it runs
    bool ended_ = false;  // that process ended, as its hold found
    std::string pending_;  // told and not yet sent
    TlvSeat* partner_ = nullptr;  // the other client's seat, when they share their sends
    int seat_ = 0;
    bool asked_ = false;  // it had its first turn
    // Why the client is out of the game (it broke the protocol, was too slow or left; a local
    // bot that never connected), in plain words; nullopt while it plays.
    std::optional<std::string> lost_;
};

}  // namespace gol::runner
