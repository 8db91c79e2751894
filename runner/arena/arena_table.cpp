#include "runner/arena/arena_table.hpp"

namespace gol::runner {

ArenaTable::ArenaTable(LeagueTable stored) : table_(std::move(stored)) {
    for (const Standing& s : table_.standings) tally_.add_bot(s.bot);
    for (const GameRecord& g : table_.games) tally_.add(g);
}

void ArenaTable::add(GameRecord record) {
    tally_.add_bot(record.bots[0]);
    tally_.add_bot(record.bots[1]);
    tally_.add(record);
    table_.games.push_back(std::move(record));
    current_ = false;
}

const LeagueTable& ArenaTable::table() {
    if (!current_) table_.standings = tally_.standings(table_.scoring);
    current_ = true;
    return table_;
}

}  // namespace gol::runner
