// --until-separated (docs/league.md, "More games where they inform"): after the schedule's games,
// rounds of two more games, one in each seat order, for every pair of bots adjacent in rating
// order whose order is uncertain, re-fitted after each round, until none is or the budget is spent.
// A pair whose games would repeat themselves gets none: its games with the same seats were
// identical, or each of its bots, shown again the boards of one of its games, made the same moves.
#pragma once

#include "runner/game/replay.hpp"
#include "runner/league/results_store.hpp"
#include "runner/league/standings.hpp"

#include <cstdio>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace gol::runner {

// Shows `bot` again its seat's boards of the first ticks of `replay`, one of its stored games, in
// order and with another seed, and tells whether it made the same moves (RepeatCheck's ticks,
// repeats and why); nullopt when the run stops meanwhile.
using AskAgain = std::function<std::optional<RepeatCheck>(const std::string& bot, const Replay& replay, int seat)>;

struct SeparationOptions {
    int budget = 0;        // added games at most
    std::string gauntlet;  // when set, only this bot's pairs get games
    Scoring scoring = Scoring::wins;
    std::vector<std::string> bots;  // the league's, in its index's order
    std::map<std::string, std::string> hashes;  // each bot's content hash, by name
    AskAgain ask_again;  // unset: a pair is known to repeat itself by its games only
};

// Plays a round for the league: `added` is every pair added so far, this round's last, and the
// round's games are the last `games` the league then expects. Returns those games once every one
// is stored, or none when the run stops (interrupted, or a game failed).
using PlayRound =
    std::function<std::optional<std::vector<ScheduledGame>>(const std::vector<AddedPair>& added, int games)>;

// Decides each round from the stored games of `schedule` and of the rounds before, reading each
// record and replay once, and has `play_round` play it. A bot is asked again at most once, and
// what it did is kept in the store (ResultsStore::save_repeat) for the next run. What it decides
// is said on `log`.
void play_until_separated(const SeparationOptions& options, std::span<const ScheduledGame> schedule,
                          ResultsStore& store, const PlayRound& play_round, std::FILE* log);

}  // namespace gol::runner
