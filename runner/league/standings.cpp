#include "runner/league/standings.hpp"
#include "runner/text/json_text.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
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

// The order of the table; the bot's name only breaks ties for display, not for rank.
auto merit(const Standing& s) { return std::make_tuple(-s.points, -s.wins, s.losses, s.forfeits, -s.mean_cells); }

// A text cell (a bot's name, a reason: bots choose them). One that a spreadsheet would take for
// a formula (= + - @, or a leading tab or CR) gets a leading single quote, which shows it as text;
// then it is quoted when CSV needs it. Numbers are ours and are written as numbers.
std::string csv_text(const std::string& s) {
    const std::string cell = !s.empty() && std::string_view("=+-@\t\r").find(s[0]) != std::string_view::npos ? "'" + s : s;
    if (cell.find_first_of(",\"\n\r") == std::string::npos) return cell;
    std::string out = "\"";
    for (char c : cell) out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

std::string markdown_cell(const std::string& s) {
    std::string out;
    for (char c : s) {
        if (c == '|' || c == '\\' || c == '*' || c == '_' || c == '`' || c == '<' || c == '[') out += '\\';
        out += c == '\n' ? ' ' : c;
    }
    return out;
}

std::string sandbox_words(const LeagueTable& t) {
    return t.settings.sandboxed ? "yes (bots ran inside bubblewrap)" : "no (bots ran without a sandbox)";
}

std::string games_line(const LeagueTable& t) {
    return std::to_string(t.total) + " games: " + std::to_string(t.played) + " played now, " +
           std::to_string(t.reused) + " from the results store";
}

}  // namespace

std::string format_points(double v) {
    char buf[32];
    if (v == std::floor(v)) std::snprintf(buf, sizeof buf, "%.0f", v);
    else std::snprintf(buf, sizeof buf, "%.1f", v);
    return buf;
}

std::string format_mean_cells(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", v);
    return buf;
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

std::optional<TableFormat> table_format_from_name(std::string_view n) {
    if (n == "text") return TableFormat::text;
    if (n == "markdown") return TableFormat::markdown;
    if (n == "json") return TableFormat::json;
    if (n == "csv") return TableFormat::csv;
    return std::nullopt;
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
    return table;
}

std::string format_table(const LeagueTable& t, TableFormat format) {
    std::string out;
    switch (format) {
        case TableFormat::json: {
            nlohmann::json j;
            j["standings"] = nlohmann::json::array();
            for (const Standing& s : t.standings)
                j["standings"].push_back({{"rank", s.rank},
                                          {"bot", s.bot},
                                          {"played", s.played},
                                          {"wins", s.wins},
                                          {"draws", s.draws},
                                          {"losses", s.losses},
                                          {"points", s.points},
                                          {"forfeits", s.forfeits},
                                          {"mean_cells", s.mean_cells}});
            j["games"] = {{"total", t.total}, {"played", t.played}, {"reused", t.reused}};
            j["excluded"] = nlohmann::json::array();
            for (const ExcludedBot& e : t.excluded) j["excluded"].push_back({{"bot", e.bot}, {"reason", e.reason}});
            j["scoring"] = name(t.scoring);
            j["sandboxed"] = t.settings.sandboxed;
            return json_text(j, 2) + "\n";
        }
        case TableFormat::csv: {
            // One rectangle for spreadsheets: every row says whether the league was sandboxed,
            // and excluded bots are rows with their reason and no numbers.
            const std::string sandboxed = t.settings.sandboxed ? "yes" : "no";
            out = "rank,bot,played,wins,draws,losses,points,forfeits,mean_cells,sandboxed,excluded\n";
            for (const Standing& s : t.standings)
                out += std::to_string(s.rank) + "," + csv_text(s.bot) + "," + std::to_string(s.played) + "," +
                       std::to_string(s.wins) + "," + std::to_string(s.draws) + "," + std::to_string(s.losses) + "," +
                       format_points(s.points) + "," + std::to_string(s.forfeits) + "," +
                       format_mean_cells(s.mean_cells) + "," + sandboxed + ",\n";
            for (const ExcludedBot& e : t.excluded)
                out += "," + csv_text(e.bot) + ",,,,,,,," + sandboxed + "," + csv_text(e.reason) + "\n";
            return out;
        }
        case TableFormat::markdown:
            out = "| Rank | Bot | Played | Wins | Draws | Losses | Points | Forfeits | Mean cells |\n"
                  "|---:|:---|---:|---:|---:|---:|---:|---:|---:|\n";
            for (const Standing& s : t.standings)
                out += "| " + std::to_string(s.rank) + " | " + markdown_cell(s.bot) + " | " +
                       std::to_string(s.played) + " | " + std::to_string(s.wins) + " | " + std::to_string(s.draws) +
                       " | " + std::to_string(s.losses) + " | " + format_points(s.points) + " | " +
                       std::to_string(s.forfeits) + " | " + format_mean_cells(s.mean_cells) + " |\n";
            out += "\nScoring: " + std::string(name(t.scoring)) + ". " + games_line(t) + ".\n";
            out += "\nSandboxed: " + sandbox_words(t) + ".\n";
            if (!t.excluded.empty()) {
                out += "\nExcluded:\n\n";
                for (const ExcludedBot& e : t.excluded)
                    out += "- " + markdown_cell(e.bot) + ": " + markdown_cell(e.reason) + "\n";
            }
            return out;
        case TableFormat::text: {
            std::size_t w = 3;
            for (const Standing& s : t.standings) w = std::max(w, s.bot.size());
            char line[512];
            std::snprintf(line, sizeof line, "%4s  %-*s %6s %5s %5s %6s %7s %8s %10s\n", "rank", int(w), "bot",
                          "played", "wins", "draws", "losses", "points", "forfeits", "mean cells");
            out += line;
            for (const Standing& s : t.standings) {
                std::snprintf(line, sizeof line, "%4d  %-*s %6d %5d %5d %6d %7s %8d %10s\n", s.rank, int(w),
                              s.bot.c_str(), s.played, s.wins, s.draws, s.losses, format_points(s.points).c_str(),
                              s.forfeits, format_mean_cells(s.mean_cells).c_str());
                out += line;
            }
            out += "scoring: " + std::string(name(t.scoring)) + "; " + games_line(t) + "\n";
            out += "sandboxed: " + sandbox_words(t) + "\n";
            for (const ExcludedBot& e : t.excluded) out += "excluded: " + e.bot + ": " + e.reason + "\n";
            return out;
        }
    }
    return out;
}

}  // namespace gol::runner
