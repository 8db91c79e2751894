// --until-separated (docs/league.md, "More games where they inform"): after the schedule's games,
// rounds of two more games, one in each seat order, for every pair of bots adjacent in rating
// order whose order is uncertain, re-fitted after each round, until none is or the budget is spent.
#pragma once

#include "runner/league/results_store.hpp"
#include "runner/league/standings.hpp"

#include <cstdio>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace gol::runner {

struct SeparationOptions {
    int budget = 0;        // added games at most
    std::string gauntlet;  // when set, only this bot's pairs get games
    Scoring scoring = Scoring::wins;
    std::vector<std::string> bots;  // the league's, in its index's order
};

// Plays a round for the league: `added` is every pair added so far, this round's last, and the
// round's games are the last `games` the league then expects. Returns those games once every one
// is stored, or none when the run stops (interrupted, or a game failed).
using PlayRound =
    std::function<std::optional<std::vector<ScheduledGame>>(const std::vector<AddedPair>& added, int games)>;

// Decides each round from the stored games of `schedule` and of the rounds before, reading each
// record and replay once, and has `play_round` play it. What it decides is said on `log`.
void play_until_separated(const SeparationOptions& options, std::span<const ScheduledGame> schedule,
                          const ResultsStore& store, const PlayRound& play_round, std::FILE* log);

}  // namespace gol::runner
