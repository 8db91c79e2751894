// The arena's table in memory (docs/arena.md, "Limits"): read from the store once, at start-up,
// then kept current by each game the arena stores, so that a leaderboard reads no stored record
// and counts each game once, as it comes (StandingsTally), however many the store holds.
#pragma once

#include "runner/league/standings.hpp"

namespace gol::runner {

class ArenaTable {
public:
    // From the store's table as `runner table` reads it (table_from_store).
    explicit ArenaTable(LeagueTable stored);

    // A game stored since; its bots join the table if they are new.
    void add(GameRecord record);
    // The table of every game added: the standings made again from the tally if a game came
    // since the last call.
    const LeagueTable& table();

private:
    LeagueTable table_;
    StandingsTally tally_;
    bool current_ = true;  // table_.standings count every game added
};

}  // namespace gol::runner
