#include "runner/league/standings.hpp"
#include "runner/league/ratings.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <tuple>

namespace gol::runner {

namespace {

// Points for a win, a draw and a loss, and whether losses subtract (kd).
struct Points {
    double win, draw, loss;
};

Points points_for(Scoring s) {
    switch (s) {
        case Scoring::wins: return {1, 1, 0};  // the 2016 contest: a tie adds a win to both
        case Scoring::points: return {3, 1, 0};
        case Scoring::half: return {1, 0.5, 0};
        case Scoring::kd: return {1, 0, -1};
    }
    return {1, 1, 0};
}

// The order of the table; the bot's name only breaks ties for display, not for rank. A bot
// without games comes last: its zeros are no results (under kd, 0 would rank it above losers).
auto merit(const Standing& s) {
    return std::make_tuple(s.played == 0, -s.points, -s.wins, s.losses, s.forfeits, -s.mean_cells);
}

// The ratings of the table's bots (by their place in it) from the games between them.
Ratings fit(const std::vector<Standing>& table, const std::vector<GameRecord>& games) {
    std::map<std::string, std::size_t> index;
    for (std::size_t i = 0; i < table.size(); ++i) index[table[i].bot] = i;
    std::vector<RatedGame> rated;
    for (const GameRecord& g : games) {
        const auto a = index.find(g.bots[0]), b = index.find(g.bots[1]);
        if (a == index.end() || b == index.end()) continue;
        const int winner = g.result.verdict.winner_seat;
        rated.push_back({a->second, b->second, winner == 0 ? 0.5 : winner == 1 ? 1.0 : 0.0});
    }
    return Ratings(table.size(), rated);
}

// Fills in the ratings of the sorted table's bots from the games between them.
void rate(std::vector<Standing>& table, const std::vector<GameRecord>& games) {
    const Ratings ratings = fit(table, games);
    for (std::size_t i = 0; i < table.size(); ++i) {
        if (!ratings.rated(i)) continue;
        table[i].elo = ratings.elo(i);
        table[i].elo_interval = ratings.interval(i);
        if (i + 1 < table.size()) table[i].los_next = ratings.superiority(i, i + 1);
    }
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
            const int winner = g.result.verdict.winner_seat;
            (winner == 0 ? r.draws : winner == seat ? r.wins : r.losses)++;
            r.games.push_back(&g);
        }
    }
    return table;
}

std::optional<Scoring> scoring_from_name(std::string_view n) {
    for (Scoring s : {Scoring::wins, Scoring::points, Scoring::half, Scoring::kd})
        if (name(s) == n) return s;
    return std::nullopt;
}

std::string_view name(Scoring s) {
    switch (s) {
        case Scoring::wins: return "wins";
        case Scoring::points: return "points";
        case Scoring::half: return "half";
        case Scoring::kd: return "kd";
    }
    return "wins";
}

std::vector<Standing> compute_standings(const std::vector<std::string>& bots, const std::vector<GameRecord>& games,
                                        Scoring scoring) {
    std::map<std::string, Standing> by_name;
    std::map<std::string, double> cell_sum;
    for (const std::string& b : bots) by_name[b].bot = b;
    const Points pts = points_for(scoring);
    for (const GameRecord& g : games) {
        if (!by_name.contains(g.bots[0]) || !by_name.contains(g.bots[1])) continue;
        for (int seat = 1; seat <= 2; ++seat) {
            Standing& s = by_name[g.bots[seat - 1]];
            ++s.played;
            s.forfeits += g.result.forfeits[seat - 1];
            cell_sum[s.bot] += static_cast<double>(g.result.cells[seat - 1]);
            if (g.timing) {
                if (!s.timing) s.timing.emplace();
                *s.timing += (*g.timing)[seat - 1];
            }
            if (g.result.verdict.winner_seat == 0) {
                ++s.draws;
                s.points += pts.draw;
            } else if (g.result.verdict.winner_seat == seat) {
                ++s.wins;
                s.points += pts.win;
            } else {
                ++s.losses;
                s.points += pts.loss;
            }
        }
    }
    std::vector<Standing> table;
    for (auto& [n, s] : by_name) {
        s.mean_cells = s.played ? cell_sum[n] / s.played : 0;
        table.push_back(s);
    }
    std::stable_sort(table.begin(), table.end(), [](const Standing& a, const Standing& b) {
        return merit(a) != merit(b) ? merit(a) < merit(b) : a.bot < b.bot;
    });
    for (std::size_t i = 0; i < table.size(); ++i)
        table[i].rank = i > 0 && merit(table[i]) == merit(table[i - 1]) ? table[i - 1].rank : static_cast<int>(i + 1);
    rate(table, games);
    return table;
}

std::vector<RatedNeighbours> rating_neighbours(const LeagueTable& table) {
    const Ratings ratings = fit(table.standings, table.games);
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
