#include "runner/report/leaderboard_page.hpp"
#include "runner/report/standings_tables.hpp"

#include "runner/game/game_stats.hpp"
#include "runner/text/count_text.hpp"
#include "runner/text/html_text.hpp"

#include <array>
#include <map>
#include <set>

namespace gol::runner {

namespace {

// Tables never wrap a cell ("1996-970" stays one line): a table wider than the page scrolls
// inside its .box, so the page itself never scrolls sideways. The standings, whose every column
// a reader needs at once, instead wrap their headings and long names, and fit 1366 px with 20
// bots.
constexpr std::string_view kStyle = R"(
body { font: 15px/1.45 system-ui, sans-serif; margin: 1.5em auto; max-width: 90em; padding: 0 1em; color: #1d232b; }
h1 { margin-bottom: 0.1em; overflow-wrap: anywhere; }
.settings, #written { color: #5a6472; margin-top: 0; }
.unsandboxed { color: #b3261e; font-weight: bold; margin-top: 0; }
.warning { color: #b3261e; overflow-wrap: anywhere; }
.box { overflow: auto; width: fit-content; max-width: 100%; margin: 0.5em 0 1.5em; border: 1px solid #dde2e8; }
#matrix-box, #games-box { max-height: 75vh; }
table { border-collapse: collapse; }
th, td { padding: 0.2em 0.6em; border-bottom: 1px solid #dde2e8; text-align: right; white-space: nowrap; }
th { background: #f2f4f7; }
thead th { position: sticky; top: 0; z-index: 1; }
td.bot, th.bot { text-align: left; }
#standings th, #standings td { padding: 0.2em 0.4em; }
#standings th { white-space: normal; vertical-align: bottom; }
#standings td.bot { white-space: normal; overflow-wrap: break-word; max-width: 14em; }
#matrix tbody th { position: sticky; left: 0; }
#matrix thead th.bot { left: 0; z-index: 2; }
#matrix td { text-align: center; }
#matrix td.self { background: #f2f4f7; }
#games thead th { cursor: pointer; user-select: none; }
#games th[aria-sort="ascending"]::after { content: " \25B2"; }
#games th[aria-sort="descending"]::after { content: " \25BC"; }
.win { color: #16794a; } .loss { color: #b3261e; } .draw { color: #5a6472; } .unplayed { color: #8a8f98; font-style: italic; }
.seat1 { color: #1f6fc4; } .seat2 { color: #c4511f; }
a { color: #1f6fc4; }
.reason { color: #5a6472; font-size: 0.9em; overflow-wrap: anywhere; }
.filter { display: flex; gap: 1em; align-items: baseline; flex-wrap: wrap; }
)";

// Filters the games list by bot and sorts it by the clicked column (again: the other way). A
// cell's data-sort, where it has one, is its sort key; columns marked data-type="number" compare
// as numbers. Bot names are compared as the cells' text, never read as markup.
constexpr std::string_view kScript = R"(
(() => {
  'use strict';
  const table = document.getElementById('games');
  const body = table.tBodies[0];
  const filter = document.getElementById('bot-filter');
  const shown = document.getElementById('games-shown');
  const rows = [...body.rows];
  const seats = (row) => [row.cells[1].textContent, row.cells[2].textContent];
  filter.addEventListener('change', () => {
    for (const row of rows) row.hidden = filter.value !== '' && !seats(row).includes(filter.value);
    shown.textContent = `${rows.filter((row) => !row.hidden).length} of ${rows.length} games`;
  });
  const key = (row, i) => row.cells[i].dataset.sort ?? row.cells[i].textContent;
  [...table.tHead.rows[0].cells].forEach((th, i) => th.addEventListener('click', () => {
    const up = th.getAttribute('aria-sort') !== 'ascending';
    for (const other of table.tHead.rows[0].cells) other.removeAttribute('aria-sort');
    th.setAttribute('aria-sort', up ? 'ascending' : 'descending');
    const compare = th.dataset.type === 'number'
      ? (a, b) => Number(key(a, i)) - Number(key(b, i))
      : (a, b) => key(a, i).localeCompare(key(b, i));
    body.append(...rows.slice().sort((a, b) => (up ? compare(a, b) : compare(b, a))));
  }));
})();
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
    if (r.verdict.winner_seat == 0) return "draw " + score + " after " + count_text(r.generations, "generation");
    return g.bots[r.verdict.winner_seat - 1] + " won by " + std::string(name(r.verdict.reason)) + " " + score +
           " after " + count_text(r.generations, "generation");
}

std::string standings_table(const LeagueTable& t) {
    std::string out = "<div class=\"box\"><table id=\"standings\"><thead><tr><th>Rank</th><th class=\"bot\">Bot</th>"
                      "<th>Played</th><th>Wins</th><th>Draws</th><th>Losses</th><th>Points</th>"
                      "<th title=\"Bradley-Terry rating fitted to all games\">Elo</th><th>&plusmn;95%</th>"
                      "<th title=\"likelihood that the bot is stronger than the next one down\">LOS</th>"
                      "<th>Forfeits</th><th>Mean cells</th>"
                      "<th title=\"mean wall time per move\">ms/move</th><th title=\"longest move\">Max ms</th>"
                      "<th title=\"mean CPU time per move\">CPU ms/<wbr>move</th>"
                      "<th title=\"timeouts / moves over 80% of the time limit\">Timeouts/<wbr>near</th>"
                      "</tr></thead><tbody>\n";
    // standing_cells' columns: the bot's name, its Elo and its LOS have a class.
    constexpr std::array<std::string_view, 16> classes = {"", "bot", "", "", "", "", "", "elo", "", "los"};
    for (const Standing& s : t.standings) {
        const std::vector<std::string> cells = standing_cells(s);
        out += "<tr>";
        for (std::size_t i = 0; i < cells.size(); ++i) out += cell(cells[i], classes[i]);
        out += "</tr>\n";
    }
    return out + "</tbody></table></div>\n";
}

// Row bot's wins-draws-losses against the column bot, then a link to each of their games. The
// box scrolls both ways with the bots' names held in sight.
std::string results_matrix(const LeagueTable& t) {
    const auto cross = crosstable(t);
    std::string out = "<div class=\"box\" id=\"matrix-box\"><table id=\"matrix\"><thead><tr><th class=\"bot\">against &rarr;</th>";
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
            const char* look = p.games.empty()       ? "unplayed"
                               : p.wins > p.losses    ? "win"
                               : p.losses > p.wins    ? "loss"
                                                      : "draw";
            out += "<td><span class=\"" + std::string(look) +
                   "\">" + format_record(p) + "</span>" + links + "</td>";
        }
        out += "</tr>\n";
    }
    return out + "</tbody></table></div>\n";
}

// A seat's forfeits by reason on one line; the last one's detail, which can be long, in its title.
std::string forfeit_cell(const GameRecord& g, int seat) {
    const std::string by_reason = forfeit_breakdown(g.forfeit_reasons[seat - 1]);
    std::string text = std::to_string(g.result.forfeits[seat - 1]);
    if (!by_reason.empty()) text += " (" + by_reason + ")";
    const std::string& last = g.last_forfeit[seat - 1];
    return "<td class=\"bot seat" + std::to_string(seat) + "\"" +
           (last.empty() ? "" : " title=\"last: " + html_escape(last) + "\"") + " data-sort=\"" +
           std::to_string(g.result.forfeits[seat - 1]) + "\">" + html_escape(text) + "</td>";
}

// One short row a game, in schedule order (the # column sorts back to it).
std::string games_table(const LeagueTable& t) {
    std::set<std::string> bots;  // the filter's options, by name
    for (const Standing& s : t.standings) bots.insert(s.bot);
    std::string out = "<div class=\"filter\"><label>Games of <select id=\"bot-filter\"><option value=\"\">every bot</option>";
    for (const std::string& b : bots) out += "<option value=\"" + html_escape(b) + "\">" + html_escape(b) + "</option>";
    out += "</select></label> <span id=\"games-shown\" class=\"settings\">" + std::to_string(t.games.size()) + " of " +
           std::to_string(t.games.size()) +
           " games</span> <span class=\"settings\">Click a column's heading to sort by it.</span></div>\n"
           "<div class=\"box\" id=\"games-box\"><table id=\"games\"><thead><tr><th data-type=\"number\">#</th>"
           "<th class=\"bot\">Seat 1</th><th class=\"bot\">Seat 2</th><th class=\"bot\">Winner</th><th class=\"bot\">By</th>"
           "<th data-type=\"number\">Generations</th><th data-type=\"number\" title=\"seat 1's final cells - seat 2's; "
           "sorts by seat 1's\">Cells</th><th class=\"bot\" data-type=\"number\">Forfeits 1</th>"
           "<th class=\"bot\" data-type=\"number\">Forfeits 2</th><th class=\"bot\">Files</th></tr></thead><tbody>\n";
    int n = 0;
    for (const GameRecord& g : t.games) {
        const GameResult& r = g.result;
        const bool draw = r.verdict.winner_seat == 0;
        out += "<tr>" + cell(std::to_string(++n)) + cell(g.bots[0], "bot seat1") + cell(g.bots[1], "bot seat2") +
               cell(draw ? "draw" : g.bots[r.verdict.winner_seat - 1], "bot") +
               cell(draw ? "" : std::string(name(r.verdict.reason)), "bot") + cell(std::to_string(r.generations)) +
               "<td data-sort=\"" + std::to_string(r.cells[0]) + "\">" + std::to_string(r.cells[0]) + "-" +
               std::to_string(r.cells[1]) + "</td>" + forfeit_cell(g, 1) + forfeit_cell(g, 2) + "<td class=\"bot\">" +
               game_link(g, "watch", outcome_words(g)) + " <a href=\"replays/" + html_escape(g.key) +
               ".jsonl\">replay</a> <a href=\"logs/" + html_escape(g.key) + ".log\">log</a></td></tr>\n";
    }
    return out + "</tbody></table></div>\n";
}

// The bots from git repositories (docs/league.md): where from, the commit each plays, and the
// commits of their games in the table, as the records keep them.
std::string repositories_list(const LeagueTable& t) {
    if (t.repositories.empty()) return "";
    std::string out = "<h2>Repositories</h2>\n<ul id=\"repositories\">\n";
    for (const RepositoryBot& r : t.repositories) {
        std::map<std::string, int> games;  // by commit
        for (const GameRecord& g : t.games)
            for (int seat = 0; seat < 2; ++seat)
                if (g.bots[seat] == r.bot && !g.commits[seat].empty()) ++games[g.commits[seat]];
        std::string played;
        for (const auto& [commit, n] : games)
            played += (played.empty() ? "; its games: " : ", ") + std::to_string(n) + " at <code>" +
                      html_escape(commit.substr(0, 12)) + "</code>";
        out += "<li><b>" + html_escape(r.bot) + "</b>: " + html_escape(r.url) + ", branch " + html_escape(r.branch) +
               (r.commit.empty() ? ", no commit" : ", plays commit <code>" + html_escape(r.commit) + "</code>") + played +
               (r.warning.empty() ? "" : " <span class=\"warning\">" + html_escape(r.warning) + "</span>") + "</li>\n";
    }
    return out + "</ul>\n";
}

}  // namespace

std::string leaderboard_page(const LeagueTable& t, const LeaderboardHeading& heading) {
    const GameConfig& c = t.settings.config;
    const std::string tournament = html_escape(heading.name);
    std::string out = "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
                      "<title>" + tournament + " &mdash; league table</title><style>" + std::string(kStyle) +
                      "</style></head><body>\n";
    // An arena (runner serve) schedules no games up front: its pairs play as its clients meet.
    const bool arena = t.settings.games_per_pair == 0;
    const std::string pairing =
        arena ? "an arena (pairs play as they meet)" : std::to_string(t.settings.games_per_pair) + " games a pair";
    const std::string played = std::to_string(t.games.size()) +
                               (arena ? "" : " of " + std::to_string(t.total)) + " games played";
    out += "<header><h1 id=\"tournament\">" + tournament + "</h1>\n<p id=\"written\">League table, page written " +
           utc_timestamp(heading.written, "%Y-%m-%d %H:%M:%S UTC") + "</p>\n<p class=\"settings\">" +
           html_escape(std::to_string(c.width) + "x" + std::to_string(c.height) + " board, " +
                       (c.clock_s > 0 ? std::to_string(c.clock_s) + " s of clock a game, "
                                      : std::to_string(c.generations) + " generations, ") +
                       std::to_string(t.settings.time_limit_ms) +
                       " ms a move, " + pairing + ", scoring " + std::string(name(t.scoring)) + "; " + played) +
           "</p>\n";
    out += arena ? "<p id=\"sandbox\" class=\"settings\">An arena: clients played from their own machines.</p>\n"
         : t.settings.sandboxed
               ? "<p id=\"sandbox\" class=\"settings\">Bots ran inside the bubblewrap sandbox.</p>\n"
               : "<p id=\"sandbox\" class=\"unsandboxed\">Bots ran without a sandbox.</p>\n";
    for (const std::string& note : table_notes(t)) out += "<p class=\"note\">Note: " + html_escape(note) + ".</p>\n";
    for (const RepositoryBot& r : t.repositories)
        if (!r.warning.empty())
            out += "<p class=\"warning\">Warning: <b>" + html_escape(r.bot) + "</b>: " + html_escape(r.warning) + ".</p>\n";
    out += "</header>\n" + standings_table(t) + repositories_list(t);
    if (!t.excluded.empty()) {
        out += "<h2>Excluded</h2>\n<ul id=\"excluded\">\n";
        for (const ExcludedBot& e : t.excluded)
            out += "<li><b>" + html_escape(e.bot) + "</b>: <span class=\"reason\">" + html_escape(e.reason) + "</span></li>\n";
        out += "</ul>\n";
    }
    out += "<h2>Results by pair</h2>\n<p class=\"settings\">Wins-draws-losses of the row's bot against the "
           "column's; the numbers open each game in the viewer.</p>\n" + results_matrix(t);
    out += "<h2>Games</h2>\n" + games_table(t);
    return out + "<script>" + std::string(kScript) + "</script>\n</body></html>\n";
}

LeaderboardHeading store_heading(const std::filesystem::path& results_dir) {
    std::filesystem::path p = std::filesystem::absolute(results_dir).lexically_normal();
    if (p.filename().empty()) p = p.parent_path();
    return {p.filename().string(), std::chrono::system_clock::now()};
}

}  // namespace gol::runner
