#include "runner/report/leaderboard_page.hpp"

#include "runner/game/game_stats.hpp"
#include "runner/text/html_text.hpp"


namespace gol::runner {

namespace {

constexpr std::string_view kStyle = R"(
body { font: 15px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 72em; padding: 0 1em; color: #1d232b; }
h1 { margin-bottom: 0.2em; }
.settings { color: #5a6472; margin-top: 0; }
.unsandboxed { color: #b3261e; font-weight: bold; margin-top: 0; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; }
th, td { padding: 0.3em 0.7em; border-bottom: 1px solid #dde2e8; text-align: right; }
th { background: #f2f4f7; }
td.bot, th.bot { text-align: left; }
#matrix td { text-align: center; white-space: nowrap; }
#matrix td.self { background: #f2f4f7; }
.win { color: #16794a; } .loss { color: #b3261e; } .draw { color: #5a6472; }
.seat1 { color: #1f6fc4; } .seat2 { color: #c4511f; }
a { color: #1f6fc4; }
.reason { color: #5a6472; font-size: 0.9em; }
)";

std::string cell(std::string_view text, std::string_view cls = {}) {
    return cls.empty() ? "<td>" + html_escape(text) + "</td>" : "<td class=\"" + std::string(cls) + "\">" + html_escape(text) + "</td>";
}

std::string game_link(const GameRecord& g, std::string_view text, std::string_view title) {
    return "<a class=\"game-link\" href=\"viewers/" + html_escape(g.key) + ".html\" title=\"" + html_escape(title) +
           "\">" + html_escape(text) + "</a>";
}

std::string outcome_words(const GameRecord& g) {
    const GameResult& r = g.result;
    const std::string score = std::to_string(r.cells[0]) + "-" + std::to_string(r.cells[1]);
    if (r.verdict.winner_seat == 0) return "draw " + score + " after " + std::to_string(r.generations) + " generations";
    return g.bots[r.verdict.winner_seat - 1] + " won by " + std::string(name(r.verdict.reason)) + " " + score +
           " after " + std::to_string(r.generations) + " generations";
}

std::string standings_table(const LeagueTable& t) {
    std::string out = "<table id=\"standings\"><thead><tr><th>Rank</th><th class=\"bot\">Bot</th><th>Played</th>"
                      "<th>Wins</th><th>Draws</th><th>Losses</th><th>Points</th>"
                      "<th title=\"Bradley-Terry rating fitted to all games\">Elo</th><th>&plusmn;95%</th>"
                      "<th title=\"likelihood that the bot is stronger than the next one down\">LOS</th>"
                      "<th>Forfeits</th><th>Mean cells</th>"
                      "<th title=\"mean wall time per move\">ms/move</th><th title=\"longest move\">Max ms</th>"
                      "<th title=\"mean CPU time per move\">CPU ms/move</th>"
                      "<th title=\"timeouts / moves over 80% of the time limit\">Timeouts/near</th>"
                      "</tr></thead><tbody>\n";
    for (const Standing& s : t.standings)
        out += "<tr>" + cell(std::to_string(s.rank)) + cell(s.bot, "bot") + cell(std::to_string(s.played)) +
               cell(std::to_string(s.wins)) + cell(std::to_string(s.draws)) + cell(std::to_string(s.losses)) +
               cell(format_points(s.points)) + cell(format_elo(s.elo), "elo") +
               cell(s.elo ? format_interval(s.elo_interval) : "-") + cell(format_los(s.los_next), "los") +
               cell(std::to_string(s.forfeits)) + cell(format_mean_cells(s.mean_cells)) +
               cell(format_mean_move(s.timing)) + cell(format_max_move(s.timing)) +
               cell(format_mean_cpu(s.timing)) + cell(format_timeouts(s.timing)) + "</tr>\n";
    return out + "</tbody></table>\n";
}

// Row bot's wins-draws-losses against the column bot, then a link to each of their games.
std::string results_matrix(const LeagueTable& t) {
    const auto cross = crosstable(t);
    std::string out = "<table id=\"matrix\"><thead><tr><th class=\"bot\">against &rarr;</th>";
    for (const Standing& col : t.standings) out += "<th>" + html_escape(col.bot) + "</th>";
    out += "</tr></thead><tbody>\n";
    for (std::size_t r = 0; r < t.standings.size(); ++r) {
        out += "<tr><th class=\"bot\">" + html_escape(t.standings[r].bot) + "</th>";
        for (std::size_t c = 0; c < t.standings.size(); ++c) {
            if (r == c) {
                out += "<td class=\"self\"></td>";
                continue;
            }
            const PairRecord& p = cross[r][c];
            std::string links;
            int n = 0;
            for (const GameRecord* g : p.games) links += " " + game_link(*g, std::to_string(++n), outcome_words(*g));
            out += "<td><span class=\"" + std::string(p.wins > p.losses ? "win" : p.losses > p.wins ? "loss" : "draw") +
                   "\">" + format_record(p) + "</span>" + links + "</td>";
        }
        out += "</tr>\n";
    }
    return out + "</tbody></table>\n";
}

std::string forfeit_words(const GameRecord& g, int seat) {
    const std::string out = forfeit_breakdown(g.forfeit_reasons[seat - 1]);
    if (out.empty()) return std::to_string(g.result.forfeits[seat - 1]);
    return std::to_string(g.result.forfeits[seat - 1]) + " (" + out + ")";
}

std::string games_table(const LeagueTable& t) {
    std::string out = "<table id=\"games\"><thead><tr><th class=\"bot\">Seat 1</th><th class=\"bot\">Seat 2</th>"
                      "<th class=\"bot\">Result</th><th>Generations</th><th>Cells</th><th class=\"bot\">Forfeits</th>"
                      "<th class=\"bot\">Files</th></tr></thead><tbody>\n";
    for (const GameRecord& g : t.games) {
        const GameResult& r = g.result;
        std::string forfeits;
        for (int seat = 1; seat <= 2; ++seat) {
            forfeits += "<div class=\"seat" + std::to_string(seat) + "\">" + html_escape(forfeit_words(g, seat));
            if (!g.last_forfeit[seat - 1].empty())
                forfeits += "<div class=\"reason\">last: " + html_escape(g.last_forfeit[seat - 1]) + "</div>";
            forfeits += "</div>";
        }
        out += "<tr>" + cell(g.bots[0], "bot seat1") + cell(g.bots[1], "bot seat2") +
               cell(r.verdict.winner_seat == 0 ? "draw" : g.bots[r.verdict.winner_seat - 1] + " by " + std::string(name(r.verdict.reason)), "bot") +
               cell(std::to_string(r.generations)) + cell(std::to_string(r.cells[0]) + "-" + std::to_string(r.cells[1])) +
               "<td class=\"bot\">" + forfeits + "</td><td class=\"bot\">" + game_link(g, "watch", outcome_words(g)) +
               " <a href=\"replays/" + html_escape(g.key) + ".jsonl\">replay</a> <a href=\"logs/" + html_escape(g.key) +
               ".log\">log</a></td></tr>\n";
    }
    return out + "</tbody></table>\n";
}

}  // namespace

std::string leaderboard_page(const LeagueTable& t) {
    const GameConfig& c = t.settings.config;
    std::string out = "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
                      "<title>League table</title><style>" + std::string(kStyle) + "</style></head><body>\n";
    out += "<h1>League table</h1>\n<p class=\"settings\">" +
           html_escape(std::to_string(c.width) + "x" + std::to_string(c.height) + " board, " +
                       std::to_string(c.generations) + " generations, " + std::to_string(t.settings.time_limit_ms) +
                       " ms a move, " + std::to_string(t.settings.games_per_pair) + " games a pair, scoring " +
                       std::string(name(t.scoring)) + "; " + std::to_string(t.games.size()) + " of " +
                       std::to_string(t.total) + " games played") + "</p>\n";
    out += t.settings.sandboxed
               ? "<p id=\"sandbox\" class=\"settings\">Bots ran inside the bubblewrap sandbox.</p>\n"
               : "<p id=\"sandbox\" class=\"unsandboxed\">Bots ran without a sandbox.</p>\n";
    out += standings_table(t);
    if (!t.excluded.empty()) {
        out += "<h2>Excluded</h2>\n<ul id=\"excluded\">\n";
        for (const ExcludedBot& e : t.excluded)
            out += "<li><b>" + html_escape(e.bot) + "</b>: <span class=\"reason\">" + html_escape(e.reason) + "</span></li>\n";
        out += "</ul>\n";
    }
    out += "<h2>Results by pair</h2>\n<p class=\"settings\">Wins-draws-losses of the row's bot against the "
           "column's; the numbers open each game in the viewer.</p>\n" + results_matrix(t);
    out += "<h2>Games</h2>\n" + games_table(t);
    return out + "</body></html>\n";
}

}  // namespace gol::runner
