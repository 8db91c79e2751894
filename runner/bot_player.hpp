// Plays one bot's moves: starts it per its protocol, enforces the limits, validates the reply.
#pragma once

#include "runner/bot_build.hpp"
#include "runner/long_argument.hpp"
#include "runner/move.hpp"
#include "runner/process.hpp"
#include "runner/temp_dir.hpp"

#include <chrono>
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
    // moves are measured through /proc instead (BotPlayer::move_persistent).
    ResourceLimits resources{std::uint64_t{1} << 30, 1, std::uint64_t{64} << 20, 256};
};

// The limits for a time limit per move and a memory limit in MiB; CPU seconds per move
// default to the time limit rounded up.
MoveLimits move_limits(int time_limit_ms, int memory_limit_mb, int cpu_limit_s = 0);

// One bot for one game. It owns the game's scratch directory (GOL_SCRATCH, also HOME), where
// a bot may keep state between its moves, and a persistent bot's process.
class BotPlayer : public Mover {
public:
    // `sandbox`: bubblewrap's path, to run the bot inside it (see sandbox.hpp).
    BotPlayer(PreparedBot bot, MoveLimits limits, ProcessRegistry* registry = nullptr,
              std::optional<std::string> sandbox = std::nullopt);

    ~BotPlayer() override;

    const PreparedBot& bot() const { return bot_; }
    MoveResult move(const std::string& board_json) override;

    // A persistent bot that fails is restarted for the next tick this many times in a game;
    // after that it forfeits the rest of the game.
    static constexpr int max_restarts = 3;

private:
    MoveResult move_once(const std::string& board_json);
    MoveResult move_persistent(const std::string& board_json);
    // Kills every process of the persistent bot's tree, also those outside its process group,
    // then the group; the next move starts a new process.
    void end_persistent();
    // Where the persistent bot's orphans go: the runner, a subreaper, when unsandboxed; in the
    // sandbox the PID namespace's init, which is in the tree already.
    int orphan_adopter() const;
    // Built once per game: the sandbox's command line checks the file system. `long_board`:
    // the board travels through the preload library (long_argument.hpp).
    SpawnSpec make_spawn_spec(bool long_board) const;

    PreparedBot bot_;
    MoveLimits limits_;
    ProcessRegistry* registry_;
    std::optional<std::string> sandbox_;
    TempDir scratch_;
    std::vector<std::string> env_;
    SpawnSpec spawn_spec_;
    // For an argv bot's boards over the argument limit, when the preload library is there.
    std::optional<std::filesystem::path> long_library_;
    std::optional<SpawnSpec> long_board_spec_;
    std::unique_ptr<LineProcess> line_;
    // line_'s processes, stopped between its moves, and their CPU time when they were stopped.
    std::vector<int> frozen_;
    std::chrono::milliseconds cpu_when_frozen_{0};
    int restarts_ = -1;  // the first start is not a restart
    bool gave_up_ = false;
};

}  // namespace gol::runner
