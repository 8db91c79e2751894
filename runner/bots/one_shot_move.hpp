// The one-shot conversation (argv and stdin bots): each move a process of its own, started by the
// bot's launcher (cold) or forked from its warm interpreter (warm), the board as its last
// argument (through the preload library when too long for one) or on stdin, its reply its
// stdout. A warm move that cannot be forked runs cold here, and so does every later move.
#pragma once

#include "runner/bots/move_forfeit.hpp"
#include "runner/game/move.hpp"
#include "runner/sandbox/launcher.hpp"
#include "runner/sys/process.hpp"

#include <optional>
#include <string>

namespace gol::runner {

class OneShotMoves {
public:
    // How the launcher runs a move: `plain` with the board appended or on stdin (`stdin_board`);
    // `long_board`, when the preload library is there, for an argv board too long for one
    // argument; `warm_script`, when not empty, the launcher's warm interpreter that forks them.
    struct Commands {
        CommandSpec plain;
        std::optional<CommandSpec> long_board;
        std::string warm_script;
        bool stdin_board = false;
    };
    // `launcher` and `rules` outlive this.
    OneShotMoves(Launcher& launcher, Commands commands, const MoveRules& rules);

    bool warm() const { return !commands_.warm_script.empty(); }
    MoveReport move(const std::string& board_json);

private:
    Launcher& launcher_;
    Commands commands_;
    const MoveRules& rules_;
    bool moved_ = false;  // a move of the game has run: the next has no start-up allowance
};

}  // namespace gol::runner
