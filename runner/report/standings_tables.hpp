// The league table written out: as text, markdown, JSON and CSV, and the cells that every format
// and the leaderboard page (leaderboard_page.hpp) show alike. league/standings.hpp computes it.
#pragma once

#include "runner/league/standings.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace gol::runner {

enum class TableFormat { text, markdown, json, csv };
std::optional<TableFormat> table_format_from_name(std::string_view name);

std::string format_table(const LeagueTable& table, TableFormat format);

// As every table format writes them: points with a decimal only when they have one
// (half-point scoring), mean cells with one decimal.
std::string format_points(double points);
// A bot's count or figure as the tables show it: `-` for a bot without games, whose zeros would
// read as results.
std::string unless_unplayed(const Standing& s, const std::string& figure);
std::string format_mean_cells(double cells);
// A rating as signed whole Elo points ("+147", "-32", "0"), "-" for none; an interval's half
// width as whole points. (A likelihood of superiority: format_los, in standings.hpp.)
std::string format_elo(std::optional<double> elo);
std::string format_interval(double half_width);

// Time per move in milliseconds with one decimal, "-" for none: the mean and longest wall time,
// the mean CPU time (over the moves whose CPU time was measured).
std::string format_mean_move(const std::optional<MoveTiming>& t);
std::string format_max_move(const std::optional<MoveTiming>& t);
std::string format_mean_cpu(const std::optional<MoveTiming>& t);
// Timeouts and near-timeouts as "timeouts/near-timeouts", "-" for none.
std::string format_timeouts(const std::optional<MoveTiming>& t);

// What a reader of the table must know to read its ranks right, a sentence each, as every format
// and the leaderboard page show them: a gauntlet's table counts the full league's stored games,
// and bots that played different numbers of games are ranked by totals that favour the busier.
std::vector<std::string> table_notes(const LeagueTable& table);

// "wins-draws-losses", as the crosstable's cells show a pair; "unplayed" for a pair without a stored game.
std::string format_record(const PairRecord& record);

}  // namespace gol::runner
