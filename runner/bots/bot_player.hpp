// Plays one bot's moves: starts it per its protocol, enforces the limits, validates the reply.
#pragma once

#include "runner/bots/bot_build.hpp"
#include "runner/bots/move_forfeit.hpp"
#include "runner/bots/tlv_bot.hpp"
#include "runner/sys/long_argument.hpp"
#include "runner/game/move.hpp"
#include "runner/sys/launcher.hpp"
#include "runner/sys/process.hpp"
#include "runner/sys/sandbox.hpp"
#include "runner/sys/temp_dir.hpp"
#include "runner/sys/work_area.hpp"

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
    // moves are measured by its launcher instead (BotPlayer::move_persistent).
    ResourceLimits resources{std::uint64_t{1} << 30, 1, std::uint64_t{64} << 20, 256, 128};
    // What GOL_SCRATCH may hold: in the sandbox, the size of its filesystem (unbounded without).
    std::uint64_t scratch_bytes = std::uint64_t{64} << 20;
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

// One bot for one game. It owns the game's scratch directory (GOL_SCRATCH, also HOME), where
// a bot may keep state between its moves, and a persistent bot's process.
class BotPlayer : public Mover {
public:
    BotPlayer(PreparedBot bot, MoveLimits limits, const BotHost& host);

    ~BotPlayer() override;

    const PreparedBot& bot() const { return bot_; }
    // Its command as its moves run it (a java run's JVM flags included), without a board.
    const std::vector<std::string>& command() const { return spawn_spec_.argv; }
    // Whether its moves are forks of a warm interpreter rather than new processes.
    bool warm() const { return !warm_script_.empty(); }
    // Encodes the board with the protocol's codec (protocol.hpp) for the bot.
    MoveReport move(const Board& board, int seat, int tick) override;
    // The move for a board already encoded (not for a tlv bot, which is told no board).
    MoveReport move(const std::string& board_json);
    // A tlv bot is told its game as it goes (Mover::begin); other bots ignore it.
    void begin(int seat, std::string_view opponent) override;
    GameObserver* watcher() override { return tlv_.get(); }
    void end(const GameResult& result) override;

    // A persistent bot that fails is restarted for the next tick this many times in a game;
    // after that it forfeits the rest of the game.
    static constexpr int max_restarts = 3;

private:
    // A move's time limit, and whether it includes the start-up allowance (a bot's first move).
    struct MoveTime {
        std::chrono::milliseconds limit;
        bool startup = false;
    };
    MoveReport move_once(const std::string& board_json);
    // The move forked from the launcher's warm interpreter; nullopt (and no warm moves from now on)
    // when there is none to fork from.
    std::optional<RunOutcome> move_warm(const std::string& board_json, const MoveTime& time);
    // Sets a move's wall-clock and CPU limits for its time.
    void with_limit(CommandSpec& spec, const MoveTime& time) const;
    // A CPU limit (when set) grows by the start-up allowance on a move that has it: a JVM's start
    // is CPU time.
    void add_startup_cpu(ResourceLimits& limits, const MoveTime& time) const;
    // The plain way's process for a move: the board as its last argument (through long_board
    // when too long for one) or on stdin; nullopt with the forfeit in `result` when it cannot be.
    std::optional<CommandSpec> plain_spec(const std::string& board_json, std::optional<LongArgument>& long_board,
                                        MoveReport& result) const;
    // A persistent bot's move: a line to its process, which is started (again) when none runs.
    MoveReport move_persistent(const std::string& board_json);
    // A tlv bot's move: T over its connection, its process started (and connected) at the first.
    // Every forfeit disconnects it and so loses the game (docs/protocol.md).
    MoveReport move_tlv(const Board& board, int seat);
    // What its forfeits' words depend on (move_forfeit.hpp), for a move with that time.
    ForfeitRules forfeit_rules(const MoveTime& time) const;
    // This move's time: with the start-up allowance when `first` (and there is one).
    MoveTime move_time(bool first) const;
    // What the launcher waits for: the time limit, or the CPU-time mode's backstop.
    std::chrono::milliseconds wall_limit(std::chrono::milliseconds time_limit) const;
    // Ends the persistent bot's process and every process of its namespace; the next move
    // starts a new process.
    void end_persistent();
    // What the launcher runs for a move (or a persistent bot's game), as seen inside.
    // `long_board`: the board travels through the preload library (long_argument.hpp).
    CommandSpec make_spawn_spec(bool long_board) const;
    // What the sandbox shows the bot: its files, the preload library when `long_board`, scratch.
    SandboxView sandbox_view(bool long_board) const;
    // The game's launcher, in the sandbox or in a PID namespace of its own: every process of
    // the bot runs through it, whatever its protocol. Throws when the runner has none.
    std::unique_ptr<Launcher> make_launcher() const;

    PreparedBot bot_;
    MoveLimits limits_;
    ProcessRegistry* registry_;
    Sandbox* sandbox_;
    std::optional<Identity> identity_;  // the host user it runs as in the sandbox, when not ours
    std::optional<TempDir> scratch_;  // without the sandbox
    Interpreters interpreters_;
    std::vector<std::string> env_;
    CommandSpec spawn_spec_;
    // For an argv bot's boards over the argument limit, when the preload library is there.
    std::optional<std::filesystem::path> long_library_;
    std::optional<CommandSpec> long_board_spec_;
    std::unique_ptr<Launcher> launcher_;
    // A tlv bot's game; after launcher_, so that it ends first.
    std::unique_ptr<TlvBot> tlv_;
    // The warm interpreter's script as the launcher sees it, when the moves run warm.
    std::string warm_script_;
    std::string board_json_;  // reused between moves: a busy board is hundreds of KiB
    int restarts_ = -1;  // the first start is not a restart
    bool moved_ = false;  // a move of the game has run (the next has no start-up allowance)
    bool fresh_start_ = false;  // the persistent process has not yet replied since it started
    bool gave_up_ = false;
};

}  // namespace gol::runner
