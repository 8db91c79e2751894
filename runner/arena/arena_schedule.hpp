// The arena's games in the results store the leagues use: its clients are the index's bots, and
// a pair's n-th game is the n-th game a league would give the pair, so `runner table` counts them
// and a restart carries on. The index lists no schedule up front (games_per_pair 0): each time
// a pair has played the games listed for it, two more are added, as --until-separated adds them,
// appended to the index as a round (ResultsStore::append_index). Beginning a game makes only its
// own key, and a new round writes one line: neither grows with the games stored.
#pragma once

#include "runner/league/results_store.hpp"

#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <utility>

namespace gol::runner {

// What every arena client has for a content hash: it is known by its name alone.
inline constexpr std::string_view arena_client_hash = "arena-client";

class ArenaSchedule {
public:
    // The store's arena index, or a new one for `settings` (whose games_per_pair is set to 0).
    // A store whose index was written with other settings starts a new arena, saying so on
    // `log`. Throws StoreError when the store holds a league's results.
    ArenaSchedule(ResultsStore& store, LeagueSettings settings, std::FILE* log);

    // Whether `name` is one of the arena's bots, and how many it lists.
    bool lists(const std::string& name) const { return positions_.contains(name); }
    std::size_t listed() const { return index_.bots.size(); }
    // Games of the pair stored or being played.
    int met(const std::string& a, const std::string& b) const;
    // The pair's next game, counted as being played (met). Adds a round to the index when the
    // pair has played every game listed for it. `b` is a client too, or the training bot with
    // its content hash. Throws std::invalid_argument when `a` and `b` are one name, and
    // StoreError when the index cannot be written; the index unchanged.
    ScheduledGame begin(const std::string& a, const std::string& b, std::string_view hash_b = arena_client_hash);
    // The game begun is over: stored, or not (interrupted, failed), when it is free to be begun again.
    void end(const ScheduledGame& game, bool stored);

private:
    using Pair = std::pair<std::string, std::string>;  // by name, in order
    // A pair's games listed in the index, and those free to begin: neither stored nor being played.
    struct PairGames {
        int listed = 0;
        std::set<int> free;  // by index within the pair
        int met = 0;         // stored or being played
    };

    static Pair pair_of(const std::string& a, const std::string& b) {
        return a < b ? Pair{a, b} : Pair{b, a};
    }
    // The pair's game `g` as the index's bots and settings make it.
    ScheduledGame game(const Pair& pair, int g) const;
    // A listed bot now known by `hash` (a training bot changed since the last run): its games have
    // other keys, so the index is written whole and its pairs' free games found again.
    void rehash(const std::string& name, std::string_view hash);
    // Two more games for the pair, and the bots of it not listed yet, added to the index.
    void add_round(const std::string& a, const std::string& b, std::string_view hash_b);

    ResultsStore& store_;
    LeagueIndex index_;
    std::map<std::string, std::size_t> positions_;  // index_.bots by name
    std::set<std::string> taken_;  // keys stored or being played
    std::map<Pair, PairGames> pairs_;
};

}  // namespace gol::runner
