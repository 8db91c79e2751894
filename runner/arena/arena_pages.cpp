#include "runner/arena/arena_pages.hpp"

#include "runner/arena/refusal_log.hpp"

#include <utility>

namespace gol::runner {

ArenaPages::ArenaPages(LeagueObserver& observer, const ResultsStore& store, std::chrono::milliseconds interval,
                       std::FILE* log)
    : observer_(observer),
      store_(store),
      interval_(interval),
      log_(log),
      table_(table_from_store(store.dir(), std::nullopt, log)),
      thread_([this](std::stop_token stop) { run(stop); }) {}

ArenaPages::~ArenaPages() {
    thread_.request_stop();
    changed_.notify_all();
    thread_.join();
}

void ArenaPages::stored(GameRecord record, PlayedGame game) {
    {
        const std::lock_guard lock(mutex_);
        arrived_.push_back(record);
        if (queue_.size() < max_queued) queue_.push_back({std::move(record), std::move(game)});
    }
    changed_.notify_all();
}

void ArenaPages::run(std::stop_token stop) {
    auto next_leaderboard = std::chrono::steady_clock::now();
    std::unique_lock lock(mutex_);
    for (;;) {
        // With a leaderboard due, until its time; else until a game comes.
        if (!arrived_.empty()) changed_.wait_until(lock, stop, next_leaderboard, [&] { return !queue_.empty(); });
        else changed_.wait(lock, stop, [&] { return !queue_.empty() || !arrived_.empty(); });
        while (!queue_.empty()) {
            Stored s = std::move(queue_.front());
            queue_.pop_front();
            lock.unlock();
            try {
                observer_.game_stored(store_, s.record, s.game);
            } catch (const std::exception& e) {
                arena_say(log_, "the viewer page of " + s.record.key + ": " + e.what());
            }
            lock.lock();
        }
        const bool ended = stop.stop_requested();
        if (!arrived_.empty() && (ended || std::chrono::steady_clock::now() >= next_leaderboard)) {
            std::vector<GameRecord> arrived = std::exchange(arrived_, {});
            lock.unlock();
            // The games stored since the last leaderboard join the table, and the observer is told of it.
            for (GameRecord& r : arrived) table_.add(std::move(r));
            try {
                observer_.run_finished(store_, table_.table());
            } catch (const std::exception& e) {
                arena_say(log_, std::string("the leaderboard page: ") + e.what());
            }
            lock.lock();
            next_leaderboard = std::chrono::steady_clock::now() + interval_;
        }
        if (ended) return;
    }
}

}  // namespace gol::runner
