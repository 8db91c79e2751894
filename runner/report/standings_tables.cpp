#include "runner/report/standings_tables.hpp"
#include "runner/text/json_text.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>

namespace gol::runner {

namespace {

constexpr std::string_view kRatingsNote =
    "Elo: Bradley-Terry rating fitted to all games (draws half a win, one virtual draw a pair), with its 95% "
    "interval; LOS: likelihood that the bot is stronger than the next one down. The scoring decides the rank.";

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

std::optional<double> ms(std::chrono::microseconds t) { return std::chrono::duration<double, std::milli>(t).count(); }

std::optional<double> mean_ms(std::chrono::microseconds total, int n) {
    if (n == 0) return std::nullopt;
    return std::chrono::duration<double, std::milli>(total).count() / n;
}

// `v` printed with `format`, or `none` when there is none (a CSV cell is empty, a table's "-").
std::string number(std::optional<double> v, const char* format, const char* none = "") {
    if (!v) return none;
    char buf[32];
    std::snprintf(buf, sizeof buf, format, *v);
    return buf;
}

// A bot's time per move for the JSON table: null for none, and a null mean CPU when no move's was measured.
nlohmann::json time_json(const std::optional<MoveTiming>& t) {
    if (!t) return nullptr;
    const auto cpu = mean_ms(t->cpu_total, t->cpu_moves);
    const auto wall = mean_ms(t->wall_total, t->moves);
    return {{"moves", t->moves},
            {"mean_move_ms", wall ? nlohmann::json(*wall) : nlohmann::json()},
            {"max_move_ms", *ms(t->wall_max)},
            {"cpu_moves", t->cpu_moves},
            {"mean_cpu_ms", cpu ? nlohmann::json(*cpu) : nlohmann::json()},
            {"timeouts", t->timeouts},
            {"near_timeouts", t->near_timeouts}};
}

// A stored game as leaderboard.json lists it: who played, the result, when and how long.
nlohmann::json game_json(const GameRecord& g) {
    return {{"key", g.key},
            {"bots", g.bots},
            {"winner", g.result.verdict.winner_seat == 0 ? nlohmann::json() : nlohmann::json(g.result.verdict.winner_seat)},
            {"reason", name(g.result.verdict.reason)},
            {"generations", g.result.generations},
            {"cells", g.result.cells},
            {"started", g.when ? nlohmann::json(g.when->started) : nlohmann::json()},
            {"duration_s", g.when ? nlohmann::json(static_cast<double>(g.when->duration.count()) / 1000) : nlohmann::json()}};
}

// The time columns of a CSV row, empty for none.
std::string csv_time(const std::optional<MoveTiming>& t) {
    if (!t) return ",,,,";
    return number(mean_ms(t->wall_total, t->moves), "%.3f") + "," + number(ms(t->wall_max), "%.3f") + "," +
           number(mean_ms(t->cpu_total, t->cpu_moves), "%.3f") + "," + std::to_string(t->timeouts) + "," +
           std::to_string(t->near_timeouts);
}

std::string markdown_row(const std::vector<std::string>& cells) {
    std::string out = "|";
    for (const std::string& cell : cells) out += " " + markdown_cell(cell) + " |";
    return out + "\n";
}

// The crosstable under the text and markdown tables, as the leaderboard page's matrix, a row of
// cells a bot after a heading row: the bot, then its record against each column's bot.
std::vector<std::vector<std::string>> crosstable_rows(const LeagueTable& t) {
    const auto cross = crosstable(t);
    std::vector<std::vector<std::string>> rows{{""}};
    for (const Standing& col : t.standings) rows[0].push_back(col.bot);
    for (std::size_t r = 0; r < t.standings.size(); ++r) {
        rows.push_back({t.standings[r].bot});
        for (std::size_t c = 0; c < t.standings.size(); ++c) rows[r + 1].push_back(r == c ? "-" : format_record(cross[r][c]));
    }
    return rows;
}

std::string markdown_crosstable(const LeagueTable& t) {
    if (t.standings.empty()) return "";
    const auto rows = crosstable_rows(t);
    std::string out = "\nCrosstable (wins-draws-losses of the row's bot against the column's):\n\n" + markdown_row(rows[0]) +
                      "|:---|";
    for (std::size_t i = 0; i < t.standings.size(); ++i) out += ":---:|";
    out += "\n";
    for (std::size_t r = 1; r < rows.size(); ++r) out += markdown_row(rows[r]);
    return out;
}

// Each column as wide as its widest cell, the records' at least as wide as "unplayed" whatever was
// played: the bots' names left-aligned, the records right-aligned.
std::string text_crosstable(const LeagueTable& t) {
    if (t.standings.empty()) return "";
    const auto rows = crosstable_rows(t);
    std::vector<std::size_t> widths(rows[0].size(), format_record({}).size());
    widths[0] = 0;
    for (const auto& row : rows)
        for (std::size_t c = 0; c < row.size(); ++c) widths[c] = std::max(widths[c], row[c].size());
    std::string out = "\ncrosstable (wins-draws-losses of the row's bot against the column's):\n";
    for (const auto& row : rows) {
        out += row[0] + std::string(widths[0] - row[0].size(), ' ');
        for (std::size_t c = 1; c < row.size(); ++c) out += "  " + std::string(widths[c] - row[c].size(), ' ') + row[c];
        out += "\n";
    }
    return out;
}

// Points with a decimal only when they have one (half-point scoring).
std::string format_points(double v) { return number(v, v == std::floor(v) ? "%.0f" : "%.1f"); }

// A rating as signed whole Elo points ("+147", "-32", "0").
std::string format_elo(std::optional<double> elo) {
    if (!elo) return "-";
    const long points = std::lround(*elo);
    return (points > 0 ? "+" : "") + std::to_string(points);
}


constexpr std::string_view kTimeNote =
    "Time: mean and longest wall time per move, mean CPU time per move (ms); timeouts/near-timeouts (over 80% "
    "of the time limit).";

std::string sandbox_words(const LeagueTable& t) {
    if (t.settings.games_per_pair == 0) return "no (arena clients play from their own machines)";
    return t.settings.sandboxed ? "yes (bots ran inside bubblewrap)" : "no (bots ran without a sandbox)";
}

std::string games_line(const LeagueTable& t) {
    // An arena (runner serve) lists no games before they are played: there is no total to give.
    if (t.settings.games_per_pair == 0) return "an arena, " + std::to_string(t.games.size()) + " games played";
    return std::to_string(t.total) + " games: " + std::to_string(t.played) + " played now, " +
           std::to_string(t.reused) + " from the results store";
}

}  // namespace

std::vector<std::string> table_notes(const LeagueTable& t) {
    std::vector<std::string> notes;
    if (!t.settings.gauntlet.empty())
        notes.push_back("a gauntlet of " + t.settings.gauntlet + ": this run played its games only; the table counts " +
                        "every stored game of the full league, " + std::to_string(t.games.size()) + " of " +
                        std::to_string(t.total) + ", so " + t.settings.gauntlet + " stands among the full standings");
    if (t.settings.config.time_bank_s > 0)
        notes.push_back("each bot had a time bank of " + std::to_string(t.settings.config.time_bank_s) +
                        " s of move time a game; once it was spent, its moves were forfeited without running it "
                        "(time_bank)");
    if (t.standings.empty()) return notes;
    const auto [fewest, most] = std::minmax_element(
        t.standings.begin(), t.standings.end(), [](const Standing& a, const Standing& b) { return a.played < b.played; });
    // An arena's clients play whom they meet, as often as they stay: no flag evens that out.
    const std::string why = t.settings.games_per_pair == 0
                                ? "an arena's clients play whoever is waiting, for as long as they stay"
                                : "--until-separated adds games where an order is uncertain; a gauntlet or an "
                                  "unfinished league leaves some unplayed";
    if (fewest->played != most->played)
        notes.push_back("the bots played from " + std::to_string(fewest->played) + " to " + std::to_string(most->played) +
                        " games (" + why + "): " + std::string(name(t.scoring)) +
                        " are totals and favour the bots with more games; Elo is fitted per game");
    return notes;
}

std::vector<std::string> standing_cells(const Standing& s) {
    // A bot without games: its zeros would read as results.
    const auto played = [&s](const std::string& figure) { return s.played == 0 ? "-" : figure; };
    const std::optional<MoveTiming>& t = s.timing;
    return {std::to_string(s.rank), s.bot, std::to_string(s.played), played(std::to_string(s.wins)),
            played(std::to_string(s.draws)), played(std::to_string(s.losses)), played(format_points(s.points)),
            format_elo(s.elo), s.elo ? std::to_string(std::lround(s.elo_interval)) : "-", format_los(s.los_next),
            played(std::to_string(s.forfeits)), played(number(s.mean_cells, "%.1f")),
            t ? number(mean_ms(t->wall_total, t->moves), "%.1f", "-") : "-", t ? number(ms(t->wall_max), "%.1f") : "-",
            t ? number(mean_ms(t->cpu_total, t->cpu_moves), "%.1f", "-") : "-",
            t ? std::to_string(t->timeouts) + "/" + std::to_string(t->near_timeouts) : "-"};
}

std::string format_record(const PairRecord& r) {
    // 0-0-0 would read as games that all went nowhere.
    if (r.games.empty()) return "unplayed";
    return std::to_string(r.wins) + "-" + std::to_string(r.draws) + "-" + std::to_string(r.losses);
}

std::optional<TableFormat> table_format_from_name(std::string_view n) {
    if (n == "text") return TableFormat::text;
    if (n == "markdown") return TableFormat::markdown;
    if (n == "json") return TableFormat::json;
    if (n == "csv") return TableFormat::csv;
    return std::nullopt;
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
                                          {"mean_cells", s.played ? nlohmann::json(s.mean_cells) : nlohmann::json()},
                                          {"elo", s.elo ? nlohmann::json(*s.elo) : nlohmann::json()},
                                          {"elo_interval", s.elo ? nlohmann::json(s.elo_interval) : nlohmann::json()},
                                          {"los_next", s.los_next ? nlohmann::json(*s.los_next) : nlohmann::json()},
                                          {"time", time_json(s.timing)}});
            // An arena schedules no games ahead: its total is what it has played.
            const std::size_t stored = t.games.size();
            j["games"] = {{"total", t.settings.games_per_pair == 0 ? stored : static_cast<std::size_t>(t.total)},
                          {"stored", stored},
                          {"played", t.played},
                          {"reused", t.reused}};
            j["game_list"] = nlohmann::json::array();
            for (const GameRecord& g : t.games) j["game_list"].push_back(game_json(g));
            j["excluded"] = t.excluded;
            // Only a league with bots from git repositories: the commit each plays, and its warning.
            if (!t.repositories.empty()) j["repositories"] = t.repositories;
            j["scoring"] = name(t.scoring);
            j["sandboxed"] = t.settings.sandboxed;
            j["notes"] = table_notes(t);
            return json_text(j, 2) + "\n";
        }
        case TableFormat::csv: {
            // One rectangle for spreadsheets: every row says whether the league was sandboxed,
            // and excluded bots are rows with their reason and no numbers.
            const std::string sandboxed = t.settings.sandboxed ? "yes" : "no";
            // New columns go last (the ratings', then the time's), so that scripts reading the
            // earlier ones by position still find them.
            out = "rank,bot,played,wins,draws,losses,points,forfeits,mean_cells,sandboxed,excluded,elo,elo_interval,"
                  "los_next,mean_move_ms,max_move_ms,mean_cpu_ms,timeouts,near_timeouts\n";
            for (const Standing& s : t.standings)
                out += std::to_string(s.rank) + "," + csv_text(s.bot) + "," + std::to_string(s.played) + "," +
                       std::to_string(s.wins) + "," + std::to_string(s.draws) + "," + std::to_string(s.losses) + "," +
                       format_points(s.points) + "," + std::to_string(s.forfeits) + "," +
                       number(s.mean_cells, "%.1f") + "," + sandboxed + ",," + number(s.elo, "%.1f") + "," +
                       number(s.elo ? std::optional(s.elo_interval) : std::nullopt, "%.1f") + "," +
                       number(s.los_next, "%.4f") + "," + csv_time(s.timing) + "\n";
            for (const ExcludedBot& e : t.excluded)
                out += "," + csv_text(e.bot) + ",,,,,,,," + sandboxed + "," + csv_text(e.reason) + ",,,,,,,,\n";
            return out;
        }
        case TableFormat::markdown: {
            out = "| Rank | Bot | Played | Wins | Draws | Losses | Points | Elo | ±95% | LOS | Forfeits | Mean cells | "
                  "ms/move | Max ms | CPU ms/move | Timeouts/near |\n"
                  "|---:|:---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
            for (const Standing& s : t.standings) out += markdown_row(standing_cells(s));
            out += "\nScoring: " + std::string(name(t.scoring)) + ". " + games_line(t) + ".\n";
            out += "\n" + std::string(kRatingsNote) + "\n";
            out += "\n" + std::string(kTimeNote) + "\n";

            out += "\nSandboxed: " + sandbox_words(t) + ".\n";
            for (const std::string& note : table_notes(t)) out += "\nNote: " + markdown_cell(note) + ".\n";
            if (!t.excluded.empty()) {
                out += "\nExcluded:\n\n";
                for (const ExcludedBot& e : t.excluded)
                    out += "- " + markdown_cell(e.bot) + ": " + markdown_cell(e.reason) + "\n";
            }
            return out + markdown_crosstable(t);
        }
        case TableFormat::text: {
            // Each column right-aligned to its width, but the bots' names, left-aligned to the longest.
            std::array<std::size_t, 16> widths = {4, 3, 6, 5, 5, 6, 7, 6, 6, 6, 8, 10, 8, 8, 8, 9};
            for (const Standing& s : t.standings) widths[1] = std::max(widths[1], s.bot.size());
            const auto line = [&widths](const std::vector<std::string>& cells) {
                std::string text;
                for (std::size_t i = 0; i < cells.size(); ++i) {
                    const std::string pad(widths[i] - std::min(widths[i], cells[i].size()), ' ');
                    text += (i == 0 ? "" : i == 1 ? "  " : " ") + (i == 1 ? cells[i] + pad : pad + cells[i]);
                }
                return text + "\n";
            };
            out += line({"rank", "bot", "played", "wins", "draws", "losses", "points", "elo", "+-95%", "los", "forfeits",
                         "mean cells", "ms/move", "max ms", "cpu ms", "t/o near"});
            for (const Standing& s : t.standings) out += line(standing_cells(s));
            out += "scoring: " + std::string(name(t.scoring)) + "; " + games_line(t) + "\n";
            out += std::string(kRatingsNote) + "\n";
            out += std::string(kTimeNote) + "\n";
            out += "sandboxed: " + sandbox_words(t) + "\n";
            for (const std::string& note : table_notes(t)) out += "note: " + note + "\n";
            for (const ExcludedBot& e : t.excluded) out += "excluded: " + e.bot + ": " + e.reason + "\n";
            return out + text_crosstable(t);
        }
    }
    return out;
}

}  // namespace gol::runner
