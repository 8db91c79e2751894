// The arena's pages, made off the serving thread (docs/arena.md, "Limits"): each stored game's
// viewer page, and the leaderboard at most once an interval however many games end in it, from
// the table kept in memory (arena_table.hpp), so that a game costs the serving thread a place in
// a queue and a leaderboard reads no stored record, whatever the store holds.
#pragma once

#include "runner/arena/arena_table.hpp"
#include "runner/league/league.hpp"

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

namespace gol::runner {

class ArenaPages {
public:
    // Games waiting for their viewer page; beyond, a game's page is left to the next leaderboard
    // (LeagueObserver::run_finished makes the viewer pages missing), and its replay not kept in memory.
    static constexpr std::size_t max_queued = 8;

    // Reads the store's table (table_from_store), the only time its records are read. Throws
    // StoreError when it cannot be read.
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

    LeagueObserver& observer_;
    const ResultsStore& store_;
    std::chrono::milliseconds interval_;
    std::FILE* log_;
    std::mutex mutex_;
    std::condition_variable_any changed_;
    std::deque<Stored> queue_;         // under mutex_
    std::vector<GameRecord> arrived_;  // under mutex_: games stored since the last leaderboard
    ArenaTable table_;                 // the pages' thread's alone, once made
    std::jthread thread_;              // last: started once all it uses is
};

}  // namespace gol::runner
