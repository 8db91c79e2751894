#include "runner/arena/arena_schedule.hpp"

#include <algorithm>
#include <stdexcept>

namespace gol::runner {

namespace {

// The settings that make a game's key; a store written with others holds other games.
bool same_games(const LeagueSettings& a, const LeagueSettings& b) {
    return a.config.width == b.config.width && a.config.height == b.config.height &&
           a.config.generations == b.config.generations && a.config.clock_s == b.config.clock_s &&
           a.time_limit_ms == b.time_limit_ms &&
           a.memory_limit_mb == b.memory_limit_mb && a.cpu_limit_s == b.cpu_limit_s &&
           a.games_per_pair == b.games_per_pair && a.seed == b.seed && a.sandboxed == b.sandboxed;
}

}  // namespace

ArenaSchedule::ArenaSchedule(ResultsStore& store, LeagueSettings settings, std::FILE* log) : store_(store) {
    settings.games_per_pair = 0;
    settings.gauntlet.clear();
    std::optional<StoredIndex> stored = find_index(store.dir());
    if (stored && stored->settings.games_per_pair != 0)
        throw StoreError(index_file(store.dir()).string() + " holds a league's results, not an arena's: serve into "
                                                            "another results folder");
    if (stored && !same_games(stored->settings, settings)) {
        std::fprintf(log, "arena: %s was written with other settings (board, generations or time limit): a new "
                          "arena starts, and the games stored before are not counted\n",
                     index_file(store.dir()).c_str());
        stored.reset();
    }
    if (stored) index_ = *stored;
    index_.settings = settings;
    index_.scoring = stored ? stored->scoring : "kd";
    const std::vector<ScheduledGame> games = store_.save_index(index_);
    const auto bad = [log](const StoreError& e) { std::fprintf(log, "arena: %s; not counted\n", e.what()); };
    const std::vector<std::optional<GameRecord>> records = load_stored(store.dir(), games, bad);
    for (std::size_t i = 0; i < games.size(); ++i)
        if (records[i]) {
            taken_.insert(games[i].key);
            ++met_[pair_of(games[i].inputs.bots[0], games[i].inputs.bots[1])];
        }
}

bool ArenaSchedule::lists(const std::string& name) const {
    return std::any_of(index_.bots.begin(), index_.bots.end(), [&](const ScheduledBot& b) { return b.name == name; });
}

int ArenaSchedule::met(const std::string& a, const std::string& b) const {
    const auto it = met_.find(pair_of(a, b));
    return it == met_.end() ? 0 : it->second;
}

void ArenaSchedule::add_bot(const std::string& name, std::string_view hash) {
    const auto same = [&](const ScheduledBot& b) { return b.name == name; };
    const auto it = std::find_if(index_.bots.begin(), index_.bots.end(), same);
    // A training bot whose content changed plays under its new hash: its old games are not its.
    if (it == index_.bots.end()) index_.bots.push_back({name, std::string(hash)});
    else it->hash = hash;
}

ScheduledGame ArenaSchedule::begin(const std::string& a, const std::string& b, std::string_view hash_b) {
    // Refused before the index changes: an index that paired a bot with itself could not be read again.
    if (a == b) throw std::invalid_argument("a game of " + a + " with itself");
    const auto next = [&]() -> std::optional<ScheduledGame> {
        for (ScheduledGame& g : schedule_added(index_.bots, index_.settings, index_.added))
            if (pair_of(g.inputs.bots[0], g.inputs.bots[1]) == pair_of(a, b) && !taken_.contains(g.key)) return g;
        return std::nullopt;
    };
    // New bots go to the end of the list, so no pair's games change.
    const std::vector<ScheduledBot> before = index_.bots;
    add_bot(a, arena_client_hash);
    add_bot(b, hash_b);
    std::optional<ScheduledGame> game = next();
    if (!game) index_.added.push_back({a, b});
    if (!game || index_.bots.size() != before.size() ||
        !std::equal(before.begin(), before.end(), index_.bots.begin(),
                    [](const ScheduledBot& x, const ScheduledBot& y) { return x.hash == y.hash; }))
        store_.save_index(index_);
    if (!game) game = next();
    taken_.insert(game->key);
    ++met_[pair_of(a, b)];
    return *game;
}

void ArenaSchedule::end(const ScheduledGame& game, bool stored) {
    if (stored) return;
    taken_.erase(game.key);
    --met_[pair_of(game.inputs.bots[0], game.inputs.bots[1])];
}

}  // namespace gol::runner
