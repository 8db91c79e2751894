// Who plays whom in a league, in which seats, and the key that identifies each game's result.
#pragma once

#include "runner/game/game_loop.hpp"

#include <nlohmann/json.hpp>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace gol::runner {

struct LeagueSettings {
    GameConfig config;
    int time_limit_ms = 1000;
    int memory_limit_mb = 1024;
    int cpu_limit_s = 0;  // 0: the time limit, rounded up
    int startup_limit_ms = 10000;  // MoveLimits::startup_limit
    bool cpu_time = false;  // MoveLimits::cpu_time
    int games_per_pair = 2;
    std::uint64_t seed = 1;
    bool sandboxed = true;  // whether bots run inside bubblewrap
    // When set (--gauntlet), only this bot's pairs are played. Not part of any game's key: a
    // gauntlet's games are the full league's games of that bot, and share their stored results.
    std::string gauntlet;
};

struct ScheduledBot {
    std::string name;
    std::string hash;
};
// As league.json and its rounds file keep it.
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(ScheduledBot, name, hash)

// Everything that decides one game's result. A game's key is the SHA-256 of exactly these, and
// a stored result names them, so it can be checked against the game it is loaded for.
struct GameInputs {
    std::string rules_version{gol::runner::rules_version};
    std::array<std::string, 2> bots;    // by seat
    std::array<std::string, 2> hashes;  // by seat: the bots' content hashes
    int game_index = 0;                 // within its pair
    std::uint64_t seed = 0;
    int width = 0, height = 0, generations = 0;  // the board and the generation limit
    int clock_s = 0;  // an arena's clock (runner serve --clock); 0: none
    int time_bank_s = 0;  // each bot's time bank (--time-bank); 0: none
    int time_limit_ms = 0;
    int memory_limit_mb = 0;
    int cpu_limit_s = 0;
    bool sandboxed = true;
    // In the key only when not the defaults, so results stored before they existed keep theirs.
    int startup_limit_ms = 10000;
    bool cpu_time = false;

    bool operator==(const GameInputs&) const = default;
};

// 64 hex digits. Every field is fixed-width or length-prefixed, so no two different inputs hash
// the same bytes.
std::string game_key(const GameInputs& inputs);

// The seed a league game gives its bots (GOL_SEED): the first 16 hex digits of the SHA-256 of
// the league's seed and the game's key. It is not among the key's inputs, so giving it to the
// bots changes no key, and a game keeps its seed as long as its key.
std::uint64_t bot_seed(std::uint64_t league_seed, const std::string& key);

struct ScheduledGame {
    std::string key;             // game_key(inputs): decides whether a stored result still holds
    std::array<int, 2> seats{};  // indexes into the bot list: seat 1, seat 2
    GameInputs inputs;
};

// Game `g` of the pair of bots[i] and bots[j], i < j, as the schedule and the added games give
// it: the first in seat 1 when g is even. An arena makes its games one at a time with it.
ScheduledGame pair_game(const std::vector<ScheduledBot>& bots, const LeagueSettings& settings, std::size_t i,
                        std::size_t j, int g);

// Every pair plays games_per_pair games, seat orders alternating, so each order is played
// equally often (games_per_pair must be even). Bots are taken in the given order; with a
// gauntlet, the pairs without its bot are left out, and the rest are as in the full league.
std::vector<ScheduledGame> schedule_league(const std::vector<ScheduledBot>& bots, const LeagueSettings& settings);

// A pair of bots, by name, given two more games (--until-separated).
using AddedPair = std::array<std::string, 2>;

// The games added after the schedule's: each entry of `added` is two more games of its pair, its
// k-th entry the pair's games games_per_pair + 2k and + 2k + 1, seats as schedule_league gives
// them. So an added game's key is never one of the schedule's, and the same list gives the same
// games. Throws std::invalid_argument for a pair naming a bot not in `bots`.
std::vector<ScheduledGame> schedule_added(const std::vector<ScheduledBot>& bots, const LeagueSettings& settings,
                                          const std::vector<AddedPair>& added);

}  // namespace gol::runner
