// The league table's numbers: scoring systems, tie-breaks, ratings and the crosstable
// (docs/league.md). report/standings_tables.hpp writes them out.
#pragma once

#include "runner/league/ratings.hpp"
#include "runner/league/results_store.hpp"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gol::runner {

enum class Scoring { wins, points, half, kd };
std::optional<Scoring> scoring_from_name(std::string_view name);
std::string_view name(Scoring scoring);

struct Standing {
    int rank = 0;
    std::string bot;
    int played = 0, wins = 0, draws = 0, losses = 0;
    double points = 0;
    int forfeits = 0;
    int time_bank_forfeits = 0;  // of the forfeits, the moves of a spent time bank: never run
    double mean_cells = 0;  // final live cells, averaged over the bot's games
    // The Bradley-Terry rating (ratings.hpp), shown beside the scoring that decides the rank:
    // none for a bot without games.
    std::optional<double> elo;
    double elo_interval = 0;  // half the width of its 95% interval
    // The likelihood that the bot is stronger than the next one down: none for the last, and for
    // bots no chain of games links.
    std::optional<double> los_next;
    // Time per move summed over the bot's games whose records keep it: none when no record does.
    std::optional<MoveTiming> timing;
};

// A bot's wins, draws and losses against another.
struct PairCounts {
    int wins = 0, draws = 0, losses = 0;
    bool operator==(const PairCounts&) const = default;
};

// The standings of a field added up one game at a time: what compute_standings counts, kept so
// that a table that grows by a game (the arena's, docs/arena.md) counts that game alone rather
// than every stored game again. Each bot's totals and each pair's counts; no game is kept.
class StandingsTally {
public:
    // A bot of the table, without games until some are added; adding it again changes nothing.
    void add_bot(const std::string& bot);
    // One game, ignored unless both its bots were added.
    void add(const GameRecord& game);
    // The standings of the bots and games added, best first, ranked and rated.
    std::vector<Standing> standings(Scoring scoring) const;
    // `row`'s wins, draws and losses against `column` in the games added.
    PairCounts pair(const std::string& row, const std::string& column) const;
    // The Bradley-Terry ratings (ratings.hpp) of `table`'s bots, by their place in it, from the
    // games added between them.
    Ratings ratings(const std::vector<Standing>& table) const;

private:
    struct Totals {
        Standing counts;  // played, wins, draws, losses, forfeits and timing
        double cells = 0;  // final live cells summed over the games
    };
    std::map<std::string, Totals> bots_;
    // By (lesser name, greater name): the lesser's counts against the greater.
    std::map<std::pair<std::string, std::string>, PairCounts> pairs_;
};

// Standings of `bots` over `games` (games naming other bots are ignored), best first: a
// StandingsTally of them.
std::vector<Standing> compute_standings(const std::vector<std::string>& bots, const std::vector<GameRecord>& games,
                                        Scoring scoring);

struct LeagueTable {
    Scoring scoring = Scoring::wins;
    LeagueSettings settings;
    std::vector<GameRecord> games;  // the stored games the standings count, in schedule order
    std::vector<Standing> standings;
    int total = 0, played = 0, reused = 0;  // games scheduled, played by this run, taken from the store
    std::vector<ExcludedBot> excluded;
    std::vector<RepositoryBot> repositories;  // the bots from git repositories, with their warnings
};

// A row bot's games against a column bot: its wins, draws and losses, and the games.
struct PairRecord : PairCounts {
    std::vector<const GameRecord*> games;
};

// The crosstable: rows and columns in the table's order (the record of a bot against itself stays empty).
std::vector<std::vector<PairRecord>> crosstable(const LeagueTable& table);

// A likelihood of superiority as a percentage with one decimal, "-" for none: as the tables show
// it, and as --until-separated's log lines name the pairs it plays.
std::string format_los(std::optional<double> los);

// Bots next to each other in rating order (highest first), whatever the scoring's order: the
// upper, the lower, and the likelihood that the upper is the stronger (none when no games link
// them). What --until-separated separates (docs/league.md).
struct RatedNeighbours {
    std::string upper, lower;
    std::optional<double> los;
};
std::vector<RatedNeighbours> rating_neighbours(const LeagueTable& table);

}  // namespace gol::runner
