#include "runner/league_schedule.hpp"

#include "runner/content_hash.hpp"

namespace gol::runner {

std::vector<ScheduledGame> schedule_league(const std::vector<ScheduledBot>& bots, const LeagueSettings& s) {
    std::vector<ScheduledGame> games;
    for (std::size_t i = 0; i < bots.size(); ++i)
        for (std::size_t j = i + 1; j < bots.size(); ++j)
            for (int g = 0; g < s.games_per_pair; ++g) {
                ScheduledGame game;
                game.game_index = g;
                game.seats = g % 2 == 0 ? std::array<int, 2>{int(i), int(j)} : std::array<int, 2>{int(j), int(i)};
                // The seed depends on the pair's names, not on list positions, so adding or
                // removing another bot leaves this pair's games, and their keys, alone.
                const ScheduledBot& a = bots[game.seats[0]];
                const ScheduledBot& b = bots[game.seats[1]];
                game.seed = Fnv64().add_u64(s.seed).add(a.name < b.name ? a.name : b.name).add("\n")
                                .add(a.name < b.name ? b.name : a.name).add_u64(static_cast<std::uint64_t>(g)).value();
                game.key = Fnv64()
                               .add(rules_version)
                               .add("\n").add(a.name).add("\n").add(a.hash)
                               .add("\n").add(b.name).add("\n").add(b.hash)
                               .add_u64(static_cast<std::uint64_t>(g))
                               .add_u64(game.seed)
                               .add_u64(static_cast<std::uint64_t>(s.config.width))
                               .add_u64(static_cast<std::uint64_t>(s.config.height))
                               .add_u64(static_cast<std::uint64_t>(s.config.generations))
                               .add_u64(static_cast<std::uint64_t>(s.time_limit_ms))
                               .add_u64(static_cast<std::uint64_t>(s.memory_limit_mb))
                               .add_u64(static_cast<std::uint64_t>(s.cpu_limit_s))
                               .hex();
                games.push_back(std::move(game));
            }
    return games;
}

}  // namespace gol::runner
