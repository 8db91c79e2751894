// A league's pages in its results store (docs/league.md): a viewer page for each game as it is
// stored, and the leaderboard page when the run ends.
#pragma once

#include "runner/league/league.hpp"

#include <cstdio>
#include <string>

namespace gol::runner {

// Pages are made from what the store holds and can be made again, so failing to write one is
// reported on `log` and costs nothing else.
class LeaguePages : public LeagueObserver {
public:
    explicit LeaguePages(std::FILE* log) : log_(log) {}

    void game_stored(const ResultsStore& store, const GameRecord& record, const PlayedGame& game) override;
    // The leaderboard page, and a viewer page for every counted game that has none yet (games
    // stored by a runner that did not make them), counted by playing its stored replay again.
    void run_finished(const ResultsStore& store, const LeagueTable& table) override;

private:
    template <typename Page>
    void write_viewer(const ResultsStore& store, const std::string& key, Page page);

    std::FILE* log_;
};

}  // namespace gol::runner
