// The arena's games in the results store the leagues use: its clients are the index's bots, and
// a pair's n-th game is the n-th game a league would give the pair, so `runner table` counts them
// and a restart carries on. The index lists no schedule up front (games_per_pair 0): each time
// a pair has played the games listed for it, two more are added, as --until-separated adds them.
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
    bool lists(const std::string& name) const;
    std::size_t listed() const { return index_.bots.size(); }
    // Games of the pair stored or being played.
    int met(const std::string& a, const std::string& b) const;
    // The pair's next game, counted as being played (met). Saves the index when it grows. `b`
    // is a client too, or the training bot with its content hash. Throws std::invalid_argument,
    // the index unchanged, when `a` and `b` are one name.
    ScheduledGame begin(const std::string& a, const std::string& b, std::string_view hash_b = arena_client_hash);
    // The game begun is over: stored, or not (interrupted, failed), when it is free to be begun again.
    void end(const ScheduledGame& game, bool stored);

private:
    static std::pair<std::string, std::string> pair_of(const std::string& a, const std::string& b) {
        return a < b ? std::pair{a, b} : std::pair{b, a};
    }
    void add_bot(const std::string& name, std::string_view hash);

    ResultsStore& store_;
    LeagueIndex index_;
    std::set<std::string> taken_;  // keys stored or being played
    std::map<std::pair<std::string, std::string>, int> met_;
};

}  // namespace gol::runner
