#include "runner/league/standings.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <map>
#include <tuple>

namespace gol::runner {

namespace {

// Each scoring, in the enum's order: its name, and its points for a win, a draw and a loss
// (kd's losses subtract).
struct ScoringRule {
    std::string_view name;
    double win, draw, loss;
};
constexpr std::array<ScoringRule, 4> kScorings{{
    {"wins", 1, 1, 0},  // the 2016 contest: a tie adds a win to both
    {"points", 3, 1, 0},
    {"half", 1, 0.5, 0},
    {"kd", 1, 0, -1},
}};

const ScoringRule& rule(Scoring s) { return kScorings[static_cast<std::size_t>(s)]; }

// The order of the table; the bot's name only breaks ties for display, not for rank. A bot
// without games comes last: its zeros are no results (under kd, 0 would rank it above losers).
auto merit(const Standing& s) {
    return std::make_tuple(s.played == 0, -s.points, -s.wins, s.losses, s.forfeits, -s.mean_cells);
}

// Counts a game for the bot in `seat` (1 or 2) in anything with wins, draws and losses: a
// bot's totals, a pair's, a crosstable's cell.
template <typename Counts>
void count_result(Counts& c, const GameResult& r, int seat) {
    (r.verdict.winner_seat == 0 ? c.draws : r.verdict.winner_seat == seat ? c.wins : c.losses)++;
}

}  // namespace

std::string format_los(std::optional<double> los) {
    if (!los) return "-";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f%%", 100 * *los);
    return buf;
}

std::vector<std::vector<PairRecord>> crosstable(const LeagueTable& t) {
    std::map<std::string, std::size_t> index;
    for (std::size_t i = 0; i < t.standings.size(); ++i) index[t.standings[i].bot] = i;
    std::vector<std::vector<PairRecord>> table(t.standings.size(), std::vector<PairRecord>(t.standings.size()));
    for (const GameRecord& g : t.games) {
        const auto a = index.find(g.bots[0]), b = index.find(g.bots[1]);
        if (a == index.end() || b == index.end() || a == b) continue;
        for (int seat = 1; seat <= 2; ++seat) {
            PairRecord& r = seat == 1 ? table[a->second][b->second] : table[b->second][a->second];
            count_result(r, g.result, seat);
            r.games.push_back(&g);
        }
    }
    return table;
}

std::optional<Scoring> scoring_from_name(std::string_view n) {
    for (std::size_t i = 0; i < kScorings.size(); ++i)
        if (kScorings[i].name == n) return static_cast<Scoring>(i);
    return std::nullopt;
}

std::string_view name(Scoring s) { return rule(s).name; }

void StandingsTally::add_bot(const std::string& bot) { bots_[bot].counts.bot = bot; }

void StandingsTally::add(const GameRecord& g) {
    const auto a = bots_.find(g.bots[0]), b = bots_.find(g.bots[1]);
    if (a == bots_.end() || b == bots_.end()) return;
    for (int seat = 1; seat <= 2; ++seat) {
        Totals& t = (seat == 1 ? a : b)->second;
        Standing& s = t.counts;
        ++s.played;
        s.forfeits += g.result.forfeits[seat - 1];
        const std::map<std::string, int>& reasons = g.forfeit_reasons[seat - 1];
        if (const auto bank = reasons.find(std::string(name(ForfeitKind::time_bank))); bank != reasons.end())
            s.time_bank_forfeits += bank->second;
        t.cells += static_cast<double>(g.result.cells[seat - 1]);
        if (g.timing) {
            if (!s.timing) s.timing.emplace();
            *s.timing += (*g.timing)[seat - 1];
        }
        count_result(s, g.result, seat);
    }
    if (a == b) return;  // a bot's game with itself counts in its totals, in no pair
    count_result(pairs_[std::minmax(g.bots[0], g.bots[1])], g.result, g.bots[0] < g.bots[1] ? 1 : 2);
}

PairCounts StandingsTally::pair(const std::string& row, const std::string& column) const {
    const auto it = pairs_.find(std::minmax(row, column));
    if (it == pairs_.end() || row == column) return {};
    return row < column ? it->second : PairCounts{it->second.losses, it->second.draws, it->second.wins};
}

std::vector<Standing> StandingsTally::standings(Scoring scoring) const {
    const ScoringRule& pts = rule(scoring);
    std::vector<Standing> table;
    for (const auto& [n, t] : bots_) {
        Standing s = t.counts;
        s.points = s.wins * pts.win + s.draws * pts.draw + s.losses * pts.loss;
        s.mean_cells = s.played ? t.cells / s.played : 0;
        table.push_back(std::move(s));
    }
    std::stable_sort(table.begin(), table.end(), [](const Standing& a, const Standing& b) {
        return merit(a) != merit(b) ? merit(a) < merit(b) : a.bot < b.bot;
    });
    for (std::size_t i = 0; i < table.size(); ++i)
        table[i].rank = i > 0 && merit(table[i]) == merit(table[i - 1]) ? table[i - 1].rank : static_cast<int>(i + 1);
    const Ratings rated = ratings(table);
    for (std::size_t i = 0; i < table.size(); ++i) {
        if (!rated.rated(i)) continue;
        table[i].elo = rated.elo(i);
        table[i].elo_interval = rated.interval(i);
        if (i + 1 < table.size()) table[i].los_next = rated.superiority(i, i + 1);
    }
    return table;
}

Ratings StandingsTally::ratings(const std::vector<Standing>& table) const {
    std::map<std::string, std::size_t> place;
    for (std::size_t i = 0; i < table.size(); ++i) place[table[i].bot] = i;
    // The fit depends on each pair's games and score alone, not on their order.
    std::vector<RatedGame> rated;
    for (const auto& [names, c] : pairs_) {
        const auto first = place.find(names.first), second = place.find(names.second);
        if (first == place.end() || second == place.end()) continue;
        rated.insert(rated.end(), static_cast<std::size_t>(c.wins), {first->second, second->second, 1.0});
        rated.insert(rated.end(), static_cast<std::size_t>(c.draws), {first->second, second->second, 0.5});
        rated.insert(rated.end(), static_cast<std::size_t>(c.losses), {first->second, second->second, 0.0});
    }
    return Ratings(table.size(), rated);
}

std::vector<Standing> compute_standings(const std::vector<std::string>& bots, const std::vector<GameRecord>& games,
                                        Scoring scoring) {
    StandingsTally tally;
    for (const std::string& b : bots) tally.add_bot(b);
    for (const GameRecord& g : games) tally.add(g);
    return tally.standings(scoring);
}

std::vector<RatedNeighbours> rating_neighbours(const LeagueTable& table) {
    StandingsTally tally;
    for (const Standing& s : table.standings) tally.add_bot(s.bot);
    for (const GameRecord& g : table.games) tally.add(g);
    const Ratings ratings = tally.ratings(table.standings);
    std::vector<std::size_t> order;
    for (std::size_t i = 0; i < table.standings.size(); ++i)
        if (ratings.rated(i)) order.push_back(i);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return ratings.elo(a) > ratings.elo(b); });
    std::vector<RatedNeighbours> out;
    for (std::size_t k = 0; k + 1 < order.size(); ++k)
        out.push_back({table.standings[order[k]].bot, table.standings[order[k + 1]].bot,
                       ratings.superiority(order[k], order[k + 1])});
    return out;
}

}  // namespace gol::runner
