// Plays one bot's moves: starts it per its protocol, enforces the limits, validates the reply.
#pragma once

#include "runner/bots/bot_build.hpp"
#include "runner/bots/line_conversation.hpp"
#include "runner/bots/move_forfeit.hpp"
#include "runner/bots/one_shot_move.hpp"
#include "runner/game/move.hpp"
#include "runner/sandbox/launcher.hpp"
#include "runner/sys/process.hpp"
#include "runner/sandbox/sandbox.hpp"
#include "runner/sys/temp_dir.hpp"
#include "runner/sandbox/work_area.hpp"
#include "runner/tlv/tlv_seat.hpp"

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gol::runner {

struct MoveLimits {
    std::chrono::milliseconds time_limit{1000};
    std::size_t stdout_cap = std::size_t{1} << 20;
    std::size_t stderr_cap = std::size_t{64} << 10;
    // CPU seconds per move. A bot started per move gets them as RLIMIT_CPU; a persistent bot's
    // moves are measured by its launcher instead (LineConversation, TlvSeat).
    ResourceLimits resources{std::uint64_t{1} << 30, 1, std::uint64_t{64} << 20, 256, 128};
    // What GOL_SCRATCH may hold: in the sandbox, the size of its filesystem (unbounded without).
    std::uint64_t scratch_bytes = Sandbox::tmp_bytes;
    // Allowed on top of the time limit (and of the CPU limit) for a bot's first move of a game,
    // and a persistent bot's first after each start: an interpreter's, a JVM's or its own start.
    std::chrono::milliseconds startup_limit{10000};
    // The time limit counts the CPU time of the bot's whole tree rather than the wall clock
    // (--time-mode cpu), so a loaded machine slows no bot into a timeout; the wall clock still
    // ends a move at cpu_time_backstop times the limit.
    bool cpu_time = false;
    static constexpr int cpu_time_backstop = 5;
};

// The limits for a time limit per move and a memory limit in MiB; CPU seconds per move
// default to the time limit rounded up.
MoveLimits move_limits(int time_limit_ms, int memory_limit_mb, int cpu_limit_s = 0, int startup_limit_ms = 10000,
                       bool cpu_time = false);

// Where a game's bots run.
struct BotHost {
    const WorkArea& area;  // the bots' scratch folders go here
    Sandbox* sandbox = nullptr;  // they run inside it when set
    ProcessRegistry* registry = nullptr;  // where their processes are registered, when set
    bool warm = true;  // false (--cold): no bot runs warm, whatever its manifest says
    // The game's seed, given to both bots as GOL_SEED, when set: the same for every move of a
    // game, so a bot with randomness can vary between games and still be repeatable.
    std::optional<std::uint64_t> seed = std::nullopt;
    Interpreters interpreters = {};  // bot_build.hpp
};

// One bot for one game, through one conversation as its protocol has it: a process per move
// (OneShotMoves), a line per move (LineConversation) or a socket (TlvSeat), each through the
// game's launcher. It owns the game's scratch directory (GOL_SCRATCH, also HOME), where a bot may
// keep state between its moves.
class BotPlayer : public Mover {
public:
    BotPlayer(PreparedBot bot, MoveLimits limits, const BotHost& host);

    const PreparedBot& bot() const { return bot_; }
    // Its command as its moves run it (a java run's JVM flags included), without a board.
    const std::vector<std::string>& command() const { return spawn_spec_.argv; }
    // Whether its moves are forks of a warm interpreter rather than new processes.
    bool warm() const { return one_shot_ && one_shot_->warm(); }
    // Encodes the board with the protocol's codec (protocol.hpp) for the bot.
    MoveReport move(const Board& board, int seat, int tick) override;
    // The move for a board already encoded (not for a tlv bot, which is told no board).
    MoveReport move(const std::string& board_json);
    // A tlv bot is told its game as it goes (Mover::begin); other bots ignore it.
    void begin(int seat, std::string_view opponent) override;
    GameObserver* watcher() override { return tlv_ ? tlv_->watcher() : nullptr; }
    void end(const GameResult& result) override;
    // Its next move's wall-clock limit is at most what is left of its time bank (MoveRules::of),
    // except a tlv bot's turn, which keeps its own limit (docs/rules.md, "Time bank").
    void limit_next_move(std::optional<BankLeft> left) override;

private:
    // The rules of a first move of the game, or of a persistent bot's process, or of another.
    ForfeitRules forfeit_rules(bool first) const;
    // What the launcher runs for a move (or a persistent bot's game), as seen inside.
    // `long_board`: the board travels through the preload library (long_argument.hpp).
    CommandSpec make_spawn_spec(bool long_board) const;
    // The game's launcher, in the sandbox or in a PID namespace of its own: every process of
    // the bot runs through it, whatever its protocol. Throws RunnerFault when the runner has none.
    std::unique_ptr<Launcher> make_launcher() const;
    // A tlv bot's seat for one game: its process run by the game's launcher, its turns judged
    // by its rules.
    std::unique_ptr<TlvSeat> tlv_seat();

    PreparedBot bot_;
    MoveLimits limits_;
    ProcessRegistry* registry_;
    Sandbox* sandbox_;
    std::optional<Identity> identity_;  // the host user it runs as in the sandbox, when not ours
    // Without the sandbox, a folder of the work area; inside it, a filesystem of its own there
    // (make_launcher).
    std::optional<TempDir> scratch_;
    Interpreters interpreters_;
    std::vector<std::string> env_;
    // For an argv bot's boards over the argument limit, when the preload library is there.
    std::optional<std::filesystem::path> long_library_;
    CommandSpec spawn_spec_;
    MoveRules rules_;
    std::unique_ptr<Launcher> launcher_;
    // Its conversation, after launcher_, so that it ends first; a tlv bot's is made per game. The
    // launcher's end ends the bot's namespace, a persistent bot's processes with it.
    std::optional<OneShotMoves> one_shot_;
    std::optional<LineConversation> lines_;
    std::unique_ptr<TlvSeat> tlv_;
    std::string board_json_;  // reused between moves: a busy board is hundreds of KiB
};

}  // namespace gol::runner
