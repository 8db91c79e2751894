// One game played and recorded, as a duel and a league game both are.
#pragma once

#include "runner/game/game_stats.hpp"
#include "runner/game/replay.hpp"

#include <stop_token>

namespace gol::runner {

struct PlayedGame {
    Replay record;            // header, ticks, result: the replay file, the viewer page, the stored result
    GameStats stats;          // move times and forfeits by seat
    GenerationCounts counts;  // live cells after each generation, which a viewer page checks its own against
};

// Plays `header`'s game between the two movers, telling `also` (a log, a progress display) of
// every move and generation too, and each mover that keeps its own board (Mover::begin).
// Throws GameInterrupted once `stop` is requested.
PlayedGame play_and_record(Mover& seat1, Mover& seat2, const ReplayHeader& header, GameObserver& also,
                           std::stop_token stop = {});

}  // namespace gol::runner
