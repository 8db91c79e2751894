// The line conversation (persistent bots, docs/protocol.md): one process for the game, started by
// the bot's launcher at its first move, told each board as a line on its stdin, its reply a line
// on its stdout; held between its moves. A forfeit ends the process, and the next move starts a
// new one, up to max_restarts times in a game.
#pragma once

#include "runner/bots/move_forfeit.hpp"
#include "runner/game/move.hpp"
#include "runner/sandbox/launcher.hpp"
#include "runner/sys/pipe_pump.hpp"
#include "runner/sys/process.hpp"

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace gol::runner {

class LineConversation {
public:
    // `launcher` and `rules` outlive this; `spec` starts the process.
    LineConversation(Launcher& launcher, CommandSpec spec, const MoveRules& rules);

    MoveReport move(const std::string& board_json);

    // After this many restarts the bot forfeits the rest of the game.
    static constexpr int max_restarts = 3;

private:
    // The process running: its pipes, and its wait status when it ended after its last reply
    // (told at the next move).
    struct Process {
        pipes::Streams streams;
        std::optional<int> ended;
    };
    // `board` as a line, and its reply `line` within `timeout`, the process held again after
    // it. extra_output: it wrote beyond its previous reply's line, found before sending, so no
    // reply is read (`line` has what was waiting). After anything but a reply the process has
    // been ended.
    MoveOutcome exchange(std::string_view board, std::chrono::milliseconds timeout, std::string& line);

    Launcher& launcher_;
    CommandSpec spec_;
    const MoveRules& rules_;
    std::optional<Process> process_;
    int restarts_ = -1;  // the first start is not a restart
    bool gave_up_ = false;
};

}  // namespace gol::runner
