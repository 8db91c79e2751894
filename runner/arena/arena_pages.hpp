// The arena's pages, made off the serving thread (docs/arena.md, "Limits"): each stored game's
// viewer page, and the leaderboard at most once an interval however many games end in it, so
// that a game costs the serving thread a place in a queue, whatever the store holds.
#pragma once

#include "runner/league/league.hpp"

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <mutex>
#include <thread>

namespace gol::runner {

class ArenaPages {
public:
    // Games waiting for their viewer page; beyond, a game's page is left to the next leaderboard
    // (LeagueObserver::run_finished makes the viewer pages missing), and its record not kept in memory.
    static constexpr std::size_t max_queued = 8;

    ArenaPages(LeagueObserver& observer, const ResultsStore& store, std::chrono::milliseconds interval, std::FILE* log);
    // Makes what is waiting, then the leaderboard once more.
    ~ArenaPages();
    ArenaPages(const ArenaPages&) = delete;
    ArenaPages& operator=(const ArenaPages&) = delete;

    void stored(GameRecord record, PlayedGame game);

private:
    struct Stored {
        GameRecord record;
        PlayedGame game;
    };
    void run(std::stop_token stop);
    void leaderboard();

    LeagueObserver& observer_;
    const ResultsStore& store_;
    std::chrono::milliseconds interval_;
    std::FILE* log_;
    std::mutex mutex_;
    std::condition_variable_any changed_;
    std::deque<Stored> queue_;  // under mutex_
    bool dirty_ = false;        // under mutex_: a game stored since the last leaderboard
    std::jthread thread_;       // last: started once all it uses is
};

}  // namespace gol::runner
