#include "runner/league/league_schedule.hpp"

#include "runner/bots/content_hash.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>

namespace gol::runner {

namespace {

std::uint64_t u64(int v) { return static_cast<std::uint64_t>(static_cast<std::int64_t>(v)); }

// A seed from a hash: its first 64 bits.
std::uint64_t leading_u64(const Sha256& h) { return std::stoull(h.hex().substr(0, 16), nullptr, 16); }

// The seed depends on the league seed and the pair's names, not on list positions, so adding
// or removing another bot leaves this pair's games, and their keys, alone.
std::uint64_t game_seed(std::uint64_t league_seed, const std::string& a, const std::string& b, int game_index) {
    return leading_u64(Sha256()
                           .add_field("gol-runner game seed")
                           .add_u64(league_seed)
                           .add_field(a < b ? a : b)
                           .add_field(a < b ? b : a)
                           .add_u64(u64(game_index)));
}

}  // namespace

ScheduledGame pair_game(const std::vector<ScheduledBot>& bots, const LeagueSettings& s, std::size_t i, std::size_t j,
                        int g) {
    ScheduledGame game;
    game.seats = g % 2 == 0 ? std::array<int, 2>{int(i), int(j)} : std::array<int, 2>{int(j), int(i)};
    const ScheduledBot& a = bots[game.seats[0]];
    const ScheduledBot& b = bots[game.seats[1]];
    GameInputs& in = game.inputs;
    in.bots = {a.name, b.name};
    in.hashes = {a.hash, b.hash};
    in.game_index = g;
    in.seed = game_seed(s.seed, a.name, b.name, g);
    in.width = s.config.width;
    in.height = s.config.height;
    in.generations = s.config.generations;
    in.clock_s = s.config.clock_s;
    in.time_bank_s = s.config.time_bank_s;
    in.time_limit_ms = s.time_limit_ms;
    in.memory_limit_mb = s.memory_limit_mb;
    in.cpu_limit_s = s.cpu_limit_s;
    in.sandboxed = s.sandboxed;
    in.startup_limit_ms = s.startup_limit_ms;
    in.cpu_time = s.cpu_time;
    game.key = game_key(in);
    return game;
}

std::string game_key(const GameInputs& in) {
    Sha256 h;
    h.add_field("gol-runner league game").add_field(in.rules_version);
    for (int seat = 0; seat < 2; ++seat) h.add_field(in.bots[seat]).add_field(in.hashes[seat]);
    h.add_u64(u64(in.game_index))
        .add_u64(in.seed)
        .add_u64(u64(in.width))
        .add_u64(u64(in.height))
        .add_u64(u64(in.generations))
        .add_u64(u64(in.time_limit_ms))
        .add_u64(u64(in.memory_limit_mb))
        .add_u64(u64(in.cpu_limit_s))
        .add_u64(in.sandboxed ? 1 : 0);
    if (in.startup_limit_ms != GameInputs{}.startup_limit_ms || in.cpu_time != GameInputs{}.cpu_time)
        h.add_field("timing").add_u64(u64(in.startup_limit_ms)).add_u64(in.cpu_time ? 1 : 0);
    // Only when there is one, so that every game without a clock keeps the key it had.
    if (in.clock_s > 0) h.add_field("clock").add_u64(u64(in.clock_s));
    // The same for a time bank: every game without one keeps its key.
    if (in.time_bank_s > 0) h.add_field("time bank").add_u64(u64(in.time_bank_s));
    return h.hex();
}

std::uint64_t bot_seed(std::uint64_t league_seed, const std::string& key) {
    return leading_u64(Sha256().add_field("gol-runner bot seed").add_u64(league_seed).add_field(key));
}

std::vector<ScheduledGame> schedule_league(const std::vector<ScheduledBot>& bots, const LeagueSettings& s) {
    std::vector<ScheduledGame> games;
    for (std::size_t i = 0; i < bots.size(); ++i)
        for (std::size_t j = i + 1; j < bots.size(); ++j) {
            if (!s.gauntlet.empty() && bots[i].name != s.gauntlet && bots[j].name != s.gauntlet) continue;
            for (int g = 0; g < s.games_per_pair; ++g) games.push_back(pair_game(bots, s, i, j, g));
        }
    return games;
}

std::vector<ScheduledGame> schedule_added(const std::vector<ScheduledBot>& bots, const LeagueSettings& s,
                                          const std::vector<AddedPair>& added) {
    // Looked up by name: an arena's index adds a round for each pair that plays on, among up to
    // thousands of bots.
    std::map<std::string, std::size_t> positions;
    for (std::size_t i = 0; i < bots.size(); ++i) positions.try_emplace(bots[i].name, i);
    const auto position = [&](const std::string& name) {
        const auto it = positions.find(name);
        if (it == positions.end()) throw std::invalid_argument("an added game's bot " + name + " is not in the league");
        return it->second;
    };
    std::map<std::pair<std::size_t, std::size_t>, int> next;  // by pair: its next game's index
    std::vector<ScheduledGame> games;
    for (const AddedPair& p : added) {
        const std::size_t a = position(p[0]), b = position(p[1]);
        const std::pair<std::size_t, std::size_t> pair{std::min(a, b), std::max(a, b)};
        if (pair.first == pair.second) throw std::invalid_argument("an added game pairs " + p[0] + " with itself");
        const auto it = next.try_emplace(pair, s.games_per_pair).first;
        for (int k = 0; k < 2; ++k) games.push_back(pair_game(bots, s, pair.first, pair.second, it->second++));
    }
    return games;
}

}  // namespace gol::runner
