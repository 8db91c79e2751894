// The league table written out: as text, markdown, JSON and CSV, and the cells that every format
// and the leaderboard page (leaderboard_page.hpp) show alike. league/standings.hpp computes it.
#pragma once

#include "runner/league/standings.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gol::runner {

enum class TableFormat { text, markdown, json, csv };
std::optional<TableFormat> table_format_from_name(std::string_view name);

std::string format_table(const LeagueTable& table, TableFormat format);

// A bot's row as the text, markdown and HTML tables show it, a cell a column: rank, bot, played,
// wins, draws, losses, points, Elo (signed whole points), its 95% interval's half width, LOS,
// forfeits, mean cells, then its time per move in ms (mean and longest wall time, mean CPU time
// over the moves whose CPU time was measured) and "timeouts/near-timeouts". "-" for what a bot
// has none of, and for a count of a bot without games, whose zeros would read as results.
std::vector<std::string> standing_cells(const Standing& s);

// What a reader of the table must know to read its ranks right, a sentence each, as every format
// and the leaderboard page show them: a gauntlet's table counts the full league's stored games,
// and bots that played different numbers of games are ranked by totals that favour the busier.
std::vector<std::string> table_notes(const LeagueTable& table);

// "wins-draws-losses", as the crosstable's cells show a pair; "unplayed" for a pair without a stored game.
std::string format_record(const PairRecord& record);

}  // namespace gol::runner
