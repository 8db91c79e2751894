// A league's time, estimated before it is played (`runner league --plan`): from what the stored
// games' records say of each bot's moves and of the runner's own time per generation, with the
// move time limit standing in for a bot never measured, so that a host knows how long a night is.
#pragma once

#include "runner/league/game_record.hpp"

#include <array>
#include <string>
#include <vector>

namespace gol::runner {

struct TimeEstimate {
    std::vector<double> game_seconds;  // each game to play, in the order given
    double total_seconds = 0;          // the run's wall time, the games spread over `jobs` workers
    std::vector<std::string> assumed;  // what the figures rest on, a sentence each
};

// `to_play`: each game's bots, seat 1 first, in the order a league plays them. `stored`: the
// records the estimate learns from (any games of these bots). Each game is taken to run all
// `generations`, each move at its bot's mean wall time over its stored moves (at most
// `time_limit_ms`; exactly that for a bot with none), plus the stored games' mean time per
// generation beyond their moves. With a time bank (`time_bank_s` above 0) a bot's moves take at
// most the bank a game.
TimeEstimate estimate_time(const std::vector<std::array<std::string, 2>>& to_play,
                           const std::vector<GameRecord>& stored, int generations, int time_limit_ms, int jobs,
                           int time_bank_s = 0);

}  // namespace gol::runner
