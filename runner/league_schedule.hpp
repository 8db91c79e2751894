// Who plays whom in a league, in which seats, and the key that identifies each game's result.
#pragma once

#include "runner/match.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace gol::runner {

struct LeagueSettings {
    GameConfig config;
    int time_limit_ms = 1000;
    int memory_limit_mb = 1024;
    int cpu_limit_s = 0;  // 0: the time limit, rounded up
    int games_per_pair = 2;
    std::uint64_t seed = 1;
};

struct ScheduledBot {
    std::string name;
    std::string hash;
};

struct ScheduledGame {
    std::string key;              // decides whether a stored result still holds
    std::array<int, 2> seats{};   // indexes into the bot list: seat 1, seat 2
    int game_index = 0;           // within its pair
    std::uint64_t seed = 0;
};

// Every pair plays games_per_pair games, seat orders alternating, so each order is played
// equally often (games_per_pair must be even). Bots are taken in the given order.
std::vector<ScheduledGame> schedule_league(const std::vector<ScheduledBot>& bots, const LeagueSettings& settings);

}  // namespace gol::runner
