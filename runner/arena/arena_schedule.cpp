#include "runner/arena/arena_schedule.hpp"

#include "runner/arena/refusal_log.hpp"

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
        arena_say(log, index_file(store.dir()).string() +
                           " was written with other settings (board, generations or time limit): a new arena starts, "
                           "and the games stored before are not counted");
        stored.reset();
    }
    if (stored) index_ = *stored;
    index_.settings = settings;
    index_.scoring = stored ? stored->scoring : "kd";
    // Written whole once, at the start: the rounds appended since the last start are folded in.
    const std::vector<ScheduledGame> games = store_.save_index(index_);
    for (std::size_t i = 0; i < index_.bots.size(); ++i) positions_.try_emplace(index_.bots[i].name, i);
    const auto bad = [log](const StoreError& e) { arena_say(log, e.what() + std::string("; not counted")); };
    const std::vector<std::optional<GameRecord>> records = load_stored(store.dir(), games, bad);
    for (std::size_t i = 0; i < games.size(); ++i) {
        const GameInputs& in = games[i].inputs;
        PairGames& pair = pairs_[pair_of(in.bots[0], in.bots[1])];
        pair.listed = std::max(pair.listed, in.game_index + 1);
        if (records[i]) {
            taken_.insert(games[i].key);
            ++pair.met;
        } else {
            pair.free.insert(in.game_index);
        }
    }
}

int ArenaSchedule::met(const std::string& a, const std::string& b) const {
    const auto it = pairs_.find(pair_of(a, b));
    return it == pairs_.end() ? 0 : it->second.met;
}

ScheduledGame ArenaSchedule::game(const Pair& pair, int g) const {
    const std::size_t i = positions_.at(pair.first), j = positions_.at(pair.second);
    return pair_game(index_.bots, index_.settings, std::min(i, j), std::max(i, j), g);
}

void ArenaSchedule::rehash(const std::string& name, std::string_view hash) {
    LeagueIndex changed = index_;
    changed.bots[positions_.at(name)].hash = hash;
    store_.save_index(changed);
    index_ = std::move(changed);
    for (auto& [pair, games] : pairs_) {
        if (pair.first != name && pair.second != name) continue;
        games.free.clear();
        for (int g = 0; g < games.listed; ++g)
            if (!taken_.contains(game(pair, g).key)) games.free.insert(g);
    }
}

void ArenaSchedule::add_round(const std::string& a, const std::string& b, std::string_view hash_b) {
    const std::size_t bots_before = index_.bots.size();
    const auto list = [&](const std::string& name, std::string_view hash) {
        if (positions_.try_emplace(name, index_.bots.size()).second) index_.bots.push_back({name, std::string(hash)});
    };
    list(a, arena_client_hash);
    list(b, hash_b);
    const Pair pair = pair_of(a, b);
    PairGames& games = pairs_[pair];
    IndexRound round{{index_.bots.begin() + static_cast<std::ptrdiff_t>(bots_before), index_.bots.end()},
                     {a, b},
                     {game(pair, games.listed).key, game(pair, games.listed + 1).key}};
    index_.added.push_back(round.pair);
    try {
        try {
            store_.append_index(round);
        } catch (const StoreError&) {
            // The line could not be appended: the index written whole holds the round as well.
            store_.save_index(index_);
        }
    } catch (...) {
        index_.added.pop_back();
        for (std::size_t i = bots_before; i < index_.bots.size(); ++i) positions_.erase(index_.bots[i].name);
        index_.bots.resize(bots_before);
        throw;
    }
    games.free.insert({games.listed, games.listed + 1});
    games.listed += 2;
}

ScheduledGame ArenaSchedule::begin(const std::string& a, const std::string& b, std::string_view hash_b) {
    // Refused before the index changes: an index that paired a bot with itself could not be read again.
    if (a == b) throw std::invalid_argument("a game of " + a + " with itself");
    using Named = std::pair<const std::string&, std::string_view>;
    for (const auto& [name, hash] : {Named{a, arena_client_hash}, Named{b, hash_b}})
        if (const auto it = positions_.find(name); it != positions_.end() && index_.bots[it->second].hash != hash)
            rehash(name, hash);
    const Pair pair = pair_of(a, b);
    if (const auto it = pairs_.find(pair); it == pairs_.end() || it->second.free.empty()) add_round(a, b, hash_b);
    PairGames& games = pairs_.at(pair);
    ScheduledGame next = game(pair, *games.free.begin());
    games.free.erase(games.free.begin());
    taken_.insert(next.key);
    ++games.met;
    return next;
}

void ArenaSchedule::end(const ScheduledGame& game, bool stored) {
    if (stored) return;
    taken_.erase(game.key);
    PairGames& games = pairs_.at(pair_of(game.inputs.bots[0], game.inputs.bots[1]));
    --games.met;
    // Free again under its key, unless a bot of it has been rehashed since it began.
    const auto current = [&](int seat) {
        return index_.bots[positions_.at(game.inputs.bots[seat])].hash == game.inputs.hashes[seat];
    };
    if (current(0) && current(1)) games.free.insert(game.inputs.game_index);
}

}  // namespace gol::runner
