// A league's pages in its results store (docs/league.md): a viewer page for each game as it is
// stored, and the leaderboard page after each game and when the run ends.
#pragma once

#include "runner/league/league.hpp"

#include <cstdio>
#include <mutex>
#include <set>
#include <string>

namespace gol::runner {

// Pages are made from what the store holds and can be made again, so failing to write one is
// reported on `log` and costs nothing else.
class LeaguePages : public LeagueObserver {
public:
    // `live`: the leaderboard page after each game too; a run of one game (--game), one of many
    // storing at once on several machines, leaves the page to a league run.
    explicit LeaguePages(std::FILE* log, bool live = true) : log_(log), live_(live) {}

    // The game's viewer page, then the leaderboard page of what the store holds now, so that a
    // host watching the page sees each result as it comes. Workers call it at once: a worker
    // that finds another rewriting the page leaves it to that one (or to the end).
    void game_stored(const ResultsStore& store, const GameRecord& record, const PlayedGame& game) override;
    // The leaderboard page, and a viewer page for every counted game that has none yet (games
    // stored by a runner that did not make them), counted by playing its stored replay again.
    // A game whose page this one made or found is not looked for again: the arena makes the
    // leaderboard again and again, and its look would grow with the store.
    void run_finished(const ResultsStore& store, const LeagueTable& table) override;

private:
    // Remembers the game when its page is written; else says why on the log.
    template <typename Page>
    void write_viewer(const ResultsStore& store, const std::string& key, Page page);
    void remember(const std::string& key);
    bool remembered(const std::string& key);
    // Replaces leaderboard.html whole (a reader sees the old page or the new one); `say`: log its path.
    void write_leaderboard(const ResultsStore& store, const LeagueTable& table, bool say);

    std::FILE* log_;
    bool live_;
    std::mutex leaderboard_;  // held while the page is rewritten
    std::mutex paged_mutex_;
    std::set<std::string> paged_;  // under paged_mutex_: games whose viewer page is there
};

}  // namespace gol::runner
