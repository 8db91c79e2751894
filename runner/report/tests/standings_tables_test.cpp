// The league table written out: every format, the cells they share, and nothing a bot names or
// a spreadsheet would run taken for anything but text; each says whether the bots were sandboxed.
#include "runner/report/leaderboard_page.hpp"
#include "runner/report/standings_tables.hpp"

#include "runner/testing/csv_rows.hpp"
#include "runner/testing/game_records.hpp"
#include "runner/testing/runner_fixture.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <set>
#include <string>

using namespace gol::runner;
using gol::runner::testing::game;
using gol::runner::testing::contains;
using gol::runner::testing::parse_csv;
using nlohmann::json;

namespace {

std::string csv_elo(double elo) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", elo);
    return buf;
}

LeagueTable small_table(bool sandboxed) {
    LeagueTable t;
    t.settings.sandboxed = sandboxed;
    t.standings = compute_standings({"a", "b"}, {}, Scoring::kd);
    t.total = 2;
    return t;
}

}  // namespace

TEST_CASE("table formats: JSON and CSV parse, markdown escapes, text lists exclusions") {
    LeagueTable t;
    t.games = {game("a,b \"q\"", "x|y", 1)};
    t.standings = compute_standings({"a,b \"q\"", "x|y"}, t.games, Scoring::wins);
    t.total = 2;
    t.played = 1;
    t.reused = 0;
    t.excluded = {{"broken", "bots/broken/bot.json: invalid JSON"}};

    auto j = nlohmann::json::parse(format_table(t, TableFormat::json));
    CHECK(j["standings"][0]["bot"] == "a,b \"q\"");
    CHECK(j["standings"][0]["rank"] == 1);
    CHECK(j["standings"][0]["points"] == 1);
    for (const char* field : {"rank", "bot", "played", "wins", "draws", "losses", "points", "forfeits", "mean_cells"})
        CHECK(j["standings"][1].contains(field));
    CHECK(j["games"] == nlohmann::json({{"total", 2}, {"stored", 1}, {"played", 1}, {"reused", 0}}));
    REQUIRE(j["game_list"].size() == 1);
    CHECK(j["game_list"][0]["bots"] == nlohmann::json({"a,b \"q\"", "x|y"}));
    CHECK(j["game_list"][0]["winner"] == 1);
    CHECK(j["game_list"][0]["started"].is_null());  // the test's record keeps no time
    CHECK(j["game_list"][0]["duration_s"].is_null());
    CHECK(j["excluded"][0]["bot"] == "broken");

    auto rows = parse_csv(format_table(t, TableFormat::csv));
    REQUIRE(rows.size() == 4);  // the excluded bot has a row too
    CHECK(rows[0][1] == "bot");
    CHECK(rows[1].size() == 19);
    CHECK(rows[1][1] == "a,b \"q\"");
    CHECK(rows[2][1] == "x|y");

    std::string md = format_table(t, TableFormat::markdown);
    CHECK(md.find("| 2 | x\\|y |") != std::string::npos);
    std::string text = format_table(t, TableFormat::text);
    CHECK(text.find("excluded: broken: bots/broken/bot.json: invalid JSON") != std::string::npos);
}

TEST_CASE("table formats: ratings beside the scoring, and the crosstable in text and markdown") {
    LeagueTable t;
    // a beats b 3-1, b and c draw twice.
    t.games = {game("a", "b", 1), game("b", "a", 2), game("a", "b", 1), game("b", "a", 1), game("b", "c", 0),
               game("c", "b", 0)};
    t.standings = compute_standings({"a", "b", "c"}, t.games, Scoring::half);
    REQUIRE(t.standings[0].bot == "a");
    CHECK(t.standings[0].elo.has_value());
    CHECK(*t.standings[0].elo > *t.standings[1].elo);
    CHECK(*t.standings[0].los_next > 0.5);
    CHECK(!t.standings[2].los_next);  // nobody below the last

    const auto j = nlohmann::json::parse(format_table(t, TableFormat::json));
    CHECK(j["standings"][0]["elo"].get<double>() == doctest::Approx(*t.standings[0].elo));
    CHECK(j["standings"][0]["elo_interval"].get<double>() == doctest::Approx(t.standings[0].elo_interval));
    CHECK(j["standings"][2]["los_next"].is_null());

    const auto rows = parse_csv(format_table(t, TableFormat::csv));
    CHECK(rows[0][11] == "elo");
    CHECK(rows[1][11] == csv_elo(*t.standings[0].elo));
    CHECK(rows[3][13] == "");

    const std::string md = format_table(t, TableFormat::markdown);
    const std::vector<std::string> cells = standing_cells(t.standings[0]);
    CHECK(md.find("| 1 | a | 4 | 3 | 0 | 1 | 3 | " + cells[7] + " | " + cells[8] + " | " + format_los(t.standings[0].los_next) +
                  " |") != std::string::npos);
    CHECK(md.find("| a | - | 3-0-1 | unplayed |\n| b | 1-0-3 | - | 0-2-0 |\n| c | unplayed | 0-2-0 | - |\n") !=
          std::string::npos);
    const std::string text = format_table(t, TableFormat::text);
    CHECK(text.find("\n          a         b         c\na         -     3-0-1  unplayed\nb     1-0-3         -     0-2-0\nc  unplayed     0-2-0         -\n") !=
          std::string::npos);
}

TEST_CASE("table formats: ratings as written") {
    // A played bot's Elo cell and its interval's.
    const auto rated = [](std::optional<double> elo, double interval) {
        Standing s;
        s.played = 1;
        s.elo = elo;
        s.elo_interval = interval;
        const std::vector<std::string> cells = standing_cells(s);
        return cells[7] + " " + cells[8];
    };
    CHECK(rated(147.2, 213.6) == "+147 214");
    CHECK(rated(-0.4, 1) == "0 1");
    CHECK(rated(-31.6, 1) == "-32 1");
    CHECK(rated(std::nullopt, 1) == "- -");
}

TEST_CASE("table formats: time per bot summed over its games, \"-\" where no record keeps it") {
    using std::chrono::microseconds;
    auto timed = [](GameRecord g, int moves, int wall_ms, int max_ms, int cpu_moves, int cpu_ms, int timeouts, int near) {
        MoveTiming t;
        t.moves = moves;
        t.wall_total = microseconds(wall_ms * 1000);
        t.wall_max = microseconds(max_ms * 1000);
        t.cpu_moves = cpu_moves;
        t.cpu_total = microseconds(cpu_ms * 1000);
        t.cpu_max = t.cpu_total;
        t.timeouts = timeouts;
        t.near_timeouts = near;
        g.timing = std::array<MoveTiming, 2>{t, t};
        return g;
    };
    LeagueTable t;
    // a: 10 moves in 300 ms over two games, the longest 90 ms, 8 moves' CPU 40 ms, 1 timeout, 2 near.
    // c's only game is an old record without times.
    t.games = {timed(game("a", "b", 1), 4, 100, 90, 4, 20, 1, 0), timed(game("b", "a", 2), 6, 200, 50, 4, 20, 0, 2),
               game("a", "c", 1)};
    t.standings = compute_standings({"a", "b", "c"}, t.games, Scoring::wins);
    REQUIRE(t.standings[0].bot == "a");
    REQUIRE(t.standings[0].timing);
    CHECK(t.standings[0].timing->moves == 10);
    CHECK(t.standings[0].timing->timeouts == 1);
    REQUIRE(t.standings[1].bot == "c");  // fewer losses than b
    CHECK(!t.standings[1].timing);
    // The time's cells: mean, longest, mean CPU, timeouts/near.
    const auto time_cells = [](const Standing& s) {
        const std::vector<std::string> cells = standing_cells(s);
        return std::vector<std::string>(cells.end() - 4, cells.end());
    };
    CHECK(time_cells(t.standings[0]) == std::vector<std::string>{"30.0", "90.0", "5.0", "1/2"});
    CHECK(time_cells(t.standings[1]) == std::vector<std::string>{"-", "-", "-", "-"});

    const auto j = nlohmann::json::parse(format_table(t, TableFormat::json));
    CHECK(j["standings"][0]["time"]["mean_move_ms"].get<double>() == doctest::Approx(30));
    CHECK(j["standings"][0]["time"]["max_move_ms"].get<double>() == doctest::Approx(90));
    CHECK(j["standings"][0]["time"]["mean_cpu_ms"].get<double>() == doctest::Approx(5));
    CHECK(j["standings"][0]["time"]["cpu_moves"] == 8);
    CHECK(j["standings"][0]["time"]["timeouts"] == 1);
    CHECK(j["standings"][0]["time"]["near_timeouts"] == 2);
    CHECK(j["standings"][1]["time"].is_null());

    // New columns come after the ratings', so the earlier ones keep their positions.
    const auto rows = parse_csv(format_table(t, TableFormat::csv));
    CHECK(rows[0][14] == "mean_move_ms");
    CHECK(rows[0][18] == "near_timeouts");
    CHECK(std::vector<std::string>(rows[1].begin() + 14, rows[1].end()) ==
          std::vector<std::string>{"30.000", "90.000", "5.000", "1", "2"});
    CHECK(std::vector<std::string>(rows[2].begin() + 14, rows[2].end()) == std::vector<std::string>{"", "", "", "", ""});

    const std::string md = format_table(t, TableFormat::markdown);
    CHECK(md.find("| ms/move | Max ms | CPU ms/move | Timeouts/near |") != std::string::npos);
    CHECK(md.find(" | 30.0 | 90.0 | 5.0 | 1/2 |\n") != std::string::npos);
    CHECK(md.find("| c | 1 | 0 | 0 | 1 |") != std::string::npos);
    CHECK(md.find(" | - | - | - | - |\n") != std::string::npos);
    const std::string text = format_table(t, TableFormat::text);
    CHECK(text.find("ms/move   max ms   cpu ms  t/o near") != std::string::npos);
    CHECK(text.find("     30.0     90.0      5.0       1/2\n") != std::string::npos);
    CHECK(text.find("        -        -        -         -\n") != std::string::npos);
}

TEST_CASE("table formats: CSV gives excluded bots rows and neutralises cells a spreadsheet would run") {
    LeagueTable t;
    const std::vector<std::string> names = {"=HYPERLINK(\"http://x\",\"y\")", "+1", "-1", "@SUM(A1)", "\tx", "plain"};
    std::vector<GameRecord> games;
    t.standings = compute_standings(names, games, Scoring::kd);
    t.excluded = {{"=cmd|' /C calc'!A0", "-bad manifest"}, {"broken", "bot.json: invalid JSON"}};
    const auto rows = parse_csv(format_table(t, TableFormat::csv));
    REQUIRE(rows.size() == 1 + names.size() + 2);
    CHECK(rows[0] == std::vector<std::string>{"rank", "bot", "played", "wins", "draws", "losses", "points", "forfeits",
                                              "mean_cells", "sandboxed", "excluded", "elo", "elo_interval",
                                              "los_next", "mean_move_ms", "max_move_ms", "mean_cpu_ms", "timeouts",
                                              "near_timeouts"});
    std::set<std::string> bots;
    for (std::size_t i = 1; i < rows.size(); ++i) {
        CAPTURE(i);
        REQUIRE(rows[i].size() == 19);
        bots.insert(rows[i][1]);
        CHECK(rows[i][9] == "yes");
    }
    for (const char* b : {"'=HYPERLINK(\"http://x\",\"y\")", "'+1", "'-1", "'@SUM(A1)", "'\tx", "plain", "'=cmd|' /C calc'!A0",
                          "broken"})
        CHECK_MESSAGE(bots.contains(b), b);
    const auto& excluded = rows[rows.size() - 2];
    CHECK(excluded[0] == "");
    CHECK(excluded[2] == "");
    CHECK(excluded[10] == "'-bad manifest");
    CHECK(rows.back()[10] == "bot.json: invalid JSON");

    // Numbers are ours and stay numbers: a negative kd score is not quoted.
    GameRecord g;
    g.bots = {"a", "b"};
    g.result.verdict.winner_seat = 1;
    t.standings = compute_standings({"a", "b"}, {g}, Scoring::kd);
    t.excluded.clear();
    const auto kd = parse_csv(format_table(t, TableFormat::csv));
    REQUIRE(kd.size() == 3);
    CHECK(kd[2][1] == "b");
    CHECK(kd[2][6] == "-1");
}

TEST_CASE("table formats: every one and the leaderboard page say whether the bots were sandboxed") {
    for (bool sandboxed : {true, false}) {
        CAPTURE(sandboxed);
        const LeagueTable t = small_table(sandboxed);
        CHECK(json::parse(format_table(t, TableFormat::json))["sandboxed"] == sandboxed);
        const std::string text = format_table(t, TableFormat::text);
        const std::string md = format_table(t, TableFormat::markdown);
        const std::string page = leaderboard_page(t, store_heading("results"));
        const auto csv = parse_csv(format_table(t, TableFormat::csv));
        if (sandboxed) {
            CHECK(contains(text, "\nsandboxed: yes (bots ran inside bubblewrap)\n"));
            CHECK(contains(md, "\nSandboxed: yes (bots ran inside bubblewrap).\n"));
            CHECK(contains(page, "<p id=\"sandbox\" class=\"settings\">Bots ran inside the bubblewrap sandbox.</p>"));
            CHECK(csv[1][9] == "yes");
        } else {
            CHECK(contains(text, "\nsandboxed: no (bots ran without a sandbox)\n"));
            CHECK(contains(md, "\nSandboxed: no (bots ran without a sandbox).\n"));
            CHECK(contains(page, "<p id=\"sandbox\" class=\"unsandboxed\">Bots ran without a sandbox.</p>"));
            CHECK(csv[1][9] == "no");
        }
    }
}

TEST_CASE("table notes: a gauntlet's table and unequal game counts are said in every format") {
    LeagueTable t;
    t.standings = compute_standings({"a", "b", "c"}, {game("a", "b", 1), game("b", "a", 1), game("a", "c", 1)},
                                    Scoring::wins);
    t.total = 6;
    t.games.resize(3);
    CHECK(table_notes(t).size() == 1);  // a played 3, b 2, c 1
    CHECK(table_notes(t)[0] == "the bots played from 1 to 3 games (--until-separated adds games where an order is "
                               "uncertain; a gauntlet or an unfinished league leaves some unplayed): wins are totals "
                               "and favour the bots with more games; Elo is fitted per game");
    t.settings.gauntlet = "a";
    REQUIRE(table_notes(t).size() == 2);
    CHECK(table_notes(t)[0] == "a gauntlet of a: this run played its games only; the table counts every stored game "
                               "of the full league, 3 of 6, so a stands among the full standings");
    CHECK(format_table(t, TableFormat::text).find("\nnote: a gauntlet of a: ") != std::string::npos);
    CHECK(format_table(t, TableFormat::markdown).find("\nNote: a gauntlet of a: ") != std::string::npos);
    CHECK(nlohmann::json::parse(format_table(t, TableFormat::json))["notes"].size() == 2);
    CHECK(leaderboard_page(t, {}).find("<p class=\"note\">Note: a gauntlet of a: ") != std::string::npos);
    // Equal counts, no gauntlet: nothing to say.
    CHECK(table_notes(small_table(true)).empty());
}

TEST_CASE("table notes: a league's time bank is said, in every format") {
    LeagueTable t = small_table(true);
    t.settings.config.time_bank_s = 60;
    REQUIRE(table_notes(t).size() == 1);
    CHECK(table_notes(t)[0] == "each bot had a time bank of 60 s of move time a game; once it was spent, its moves "
                               "were forfeited without running it (time_bank)");
    CHECK(format_table(t, TableFormat::text).find("\nnote: each bot had a time bank of 60 s") != std::string::npos);
    CHECK(leaderboard_page(t, {}).find("<p class=\"note\">Note: each bot had a time bank of 60 s") != std::string::npos);
}

TEST_CASE("table formats: JSON lists each game with its start and length; an arena's total is its games") {
    LeagueTable t;
    t.games = {game("a", "b", 1), game("b", "a", 2), game("a", "b", 0)};
    t.games[1].when = GameWhen{"2026-11-27T03:17:02Z", std::chrono::milliseconds(61'500)};
    t.standings = compute_standings({"a", "b"}, t.games, Scoring::kd);
    t.settings.games_per_pair = 0;  // an arena's store
    t.total = 4;                    // the pairs' games rounded up to both seat orders
    const json j = json::parse(format_table(t, TableFormat::json));
    CHECK(j["games"]["total"] == 3);
    CHECK(j["games"]["stored"] == 3);
    CHECK(j["game_list"][1]["started"] == "2026-11-27T03:17:02Z");
    CHECK(j["game_list"][1]["duration_s"] == 61.5);
}

TEST_CASE("table formats: a bot without games shows - for its counts, not zeros") {
    LeagueTable t;
    t.games = {game("a", "b", 1)};
    t.standings = compute_standings({"a", "b", "fresh"}, t.games, Scoring::wins);
    t.total = 6;
    const std::string md = format_table(t, TableFormat::markdown);
    CHECK(contains(md, "| 3 | fresh | 0 | - | - | - | - | - | - | - | - | - | - | - | - | - |"));
    const std::string text = format_table(t, TableFormat::text);
    const std::size_t fresh = text.find("fresh");
    REQUIRE(fresh != std::string::npos);
    const std::string row = text.substr(fresh, text.find('\n', fresh) - fresh);
    CHECK(row.find("0.0") == std::string::npos);
    CHECK(json::parse(format_table(t, TableFormat::json))["standings"][2]["mean_cells"].is_null());
    const std::string page = leaderboard_page(t, {"cup", {}});
    CHECK(contains(page, "<td class=\"bot\">fresh</td><td>0</td><td>-</td><td>-</td><td>-</td><td>-</td>"));
}
