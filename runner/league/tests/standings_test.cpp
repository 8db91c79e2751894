#include "runner/league/league_schedule.hpp"
#include "runner/league/standings.hpp"
#include "runner/sys/temp_dir.hpp"
#include "runner/league/tournament.hpp"

#include "runner/testing/csv_rows.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <set>
#include <sstream>

using namespace gol::runner;
using gol::runner::testing::parse_csv;

namespace {

GameRecord game(const std::string& a, const std::string& b, int winner, std::int64_t ca = 10, std::int64_t cb = 5,
                int fa = 0, int fb = 0) {
    GameRecord r;
    r.bots = {a, b};
    r.result.verdict.winner_seat = winner;
    r.result.cells = {ca, cb};
    r.result.forfeits = {fa, fb};
    return r;
}

const Standing& row(const std::vector<Standing>& t, const std::string& bot) {
    for (const Standing& s : t)
        if (s.bot == bot) return s;
    FAIL("no row for " << bot);
    return t.front();
}

std::string csv_elo(double elo) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", elo);
    return buf;
}

}  // namespace

TEST_CASE("standings: each scoring system") {
    std::vector<GameRecord> games = {game("a", "b", 1), game("b", "a", 0), game("a", "c", 2), game("c", "b", 1)};
    std::vector<std::string> bots = {"a", "b", "c"};
    auto wins = compute_standings(bots, games, Scoring::wins);
    CHECK(row(wins, "a").wins == 1);
    CHECK(row(wins, "a").draws == 1);
    CHECK(row(wins, "a").losses == 1);
    CHECK(row(wins, "a").points == 2);  // 2016: a draw counts as a win for both
    CHECK(row(wins, "c").points == 2);
    CHECK(row(compute_standings(bots, games, Scoring::points), "a").points == 4);
    CHECK(row(compute_standings(bots, games, Scoring::half), "a").points == 1.5);
    CHECK(row(compute_standings(bots, games, Scoring::kd), "a").points == 0);
    CHECK(row(compute_standings(bots, games, Scoring::kd), "c").points == 2);
    CHECK(row(wins, "c").played == 2);
    CHECK(row(wins, "a").mean_cells == doctest::Approx((10 + 5 + 10) / 3.0));
}

TEST_CASE("standings: tie-breaks, shared ranks and bots no longer in the league") {
    std::vector<GameRecord> games = {
        game("a", "b", 1, 10, 5, 0, 0),  // a wins
        game("b", "a", 1, 7, 5, 0, 2),   // b wins; a forfeited twice
        game("c", "d", 0, 3, 3),         // c and d draw, identical in every way
        game("a", "gone", 1),            // 'gone' left the league: ignored
    };
    auto t = compute_standings({"a", "b", "c", "d"}, games, Scoring::points);
    REQUIRE(t.size() == 4);
    // a and b: 3 points, one win, one loss each; b has fewer forfeits.
    CHECK(t[0].bot == "b");
    CHECK(t[0].rank == 1);
    CHECK(t[1].bot == "a");
    CHECK(t[1].rank == 2);
    CHECK(t[1].played == 2);
    CHECK(t[2].bot == "c");
    CHECK(t[3].bot == "d");
    CHECK(t[2].rank == 3);
    CHECK(t[3].rank == 3);
}

TEST_CASE("table formats: JSON and CSV parse, markdown escapes, text lists exclusions") {
    LeagueTable t;
    t.standings = compute_standings({"a,b \"q\"", "x|y"}, {game("a,b \"q\"", "x|y", 1)}, Scoring::wins);
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
    CHECK(j["games"] == nlohmann::json({{"total", 2}, {"played", 1}, {"reused", 0}}));
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
    CHECK(md.find("| 1 | a | 4 | 3 | 0 | 1 | 3 | " + format_elo(t.standings[0].elo) + " | " +
                  format_interval(t.standings[0].elo_interval) + " | " + format_los(t.standings[0].los_next) +
                  " |") != std::string::npos);
    CHECK(md.find("| a | - | 3-0-1 | 0-0-0 |\n| b | 1-0-3 | - | 0-2-0 |\n| c | 0-0-0 | 0-2-0 | - |\n") !=
          std::string::npos);
    const std::string text = format_table(t, TableFormat::text);
    CHECK(text.find("\n       a      b      c\na      -  3-0-1  0-0-0\nb  1-0-3      -  0-2-0\nc  0-0-0  0-2-0      -\n") !=
          std::string::npos);
}

TEST_CASE("table formats: ratings as written") {
    CHECK(format_elo(147.2) == "+147");
    CHECK(format_elo(-0.4) == "0");
    CHECK(format_elo(-31.6) == "-32");
    CHECK(format_elo(std::nullopt) == "-");
    CHECK(format_interval(213.6) == "214");
    CHECK(format_los(0.8321) == "83.2%");
    CHECK(format_los(std::nullopt) == "-");
}

TEST_CASE("schedule: every pair, each seat order equally often, stable keys") {
    LeagueSettings s;
    s.games_per_pair = 4;
    std::vector<ScheduledBot> bots = {{"a", "1"}, {"b", "2"}, {"c", "3"}};
    auto games = schedule_league(bots, s);
    CHECK(games.size() == 12);
    std::map<std::pair<int, int>, int> orders;
    std::set<std::string> keys;
    for (const auto& g : games) {
        ++orders[{g.seats[0], g.seats[1]}];
        keys.insert(g.key);
    }
    CHECK(keys.size() == 12);
    for (const auto& [order, n] : orders) CHECK(n == 2);

    // Adding a bot leaves the existing pairs' keys alone; changing a hash changes only its games.
    auto more = schedule_league({{"a", "1"}, {"b", "2"}, {"c", "3"}, {"d", "4"}}, s);
    std::set<std::string> more_keys;
    for (const auto& g : more) more_keys.insert(g.key);
    for (const auto& k : keys) CHECK(more_keys.contains(k));
    auto changed = schedule_league({{"a", "1"}, {"b", "2"}, {"c", "CHANGED"}}, s);
    int same = 0;
    for (const auto& g : changed) same += keys.contains(g.key);
    CHECK(same == 4);  // a-b only

    LeagueSettings longer = s;
    longer.config.generations = 500;
    for (const auto& g : schedule_league(bots, longer)) CHECK_FALSE(keys.contains(g.key));
}

TEST_CASE("tournament files: fields, relative bots folder, and errors naming the field") {
    TempDir dir("tournament-test");
    auto write = [&](const std::string& text) {
        std::ofstream(dir.path() / "t.json") << text;
        return dir.path() / "t.json";
    };
    Tournament t = read_tournament(write(R"({"bots": "../bots", "width": 64, "generations": 300, "scoring": "kd",
                                              "games_per_pair": 4, "seed": 9, "time_limit_ms": 500})"));
    CHECK(*t.bots == (dir.path() / "../bots").lexically_normal());
    CHECK(*t.width == 64);
    CHECK_FALSE(t.height.has_value());
    CHECK(*t.scoring == "kd");
    CHECK(*t.seed == 9);
    CHECK(t.results_dir() == dir.path() / "t");
    auto error = [&](const std::string& text) {
        try {
            read_tournament(write(text));
        } catch (const TournamentError& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    CHECK(error("{").find("invalid JSON") != std::string::npos);
    CHECK(error(R"({"seed": 1e99999})").find("invalid JSON") != std::string::npos);
    CHECK(error(R"({"widht": 5})").find("unknown key \"widht\"") != std::string::npos);
    CHECK(error(R"({"width": 0})").find("\"width\" must be an integer from 1 to 4096") != std::string::npos);
    CHECK(error(R"({"games_per_pair": 3})").find("must be even") != std::string::npos);
    CHECK(error(R"({"scoring": "elo"})").find("\"scoring\" must be") != std::string::npos);
    CHECK(error(R"({"seed": -1})").find("\"seed\"") != std::string::npos);
    CHECK(error(R"({"seed": 1})").find("t.json") == std::string::npos);  // valid: no error
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
    CHECK(format_mean_move(t.standings[0].timing) == "30.0");
    CHECK(format_max_move(t.standings[0].timing) == "90.0");
    CHECK(format_mean_cpu(t.standings[0].timing) == "5.0");
    CHECK(format_timeouts(t.standings[0].timing) == "1/2");
    CHECK(format_mean_move(std::nullopt) == "-");
    CHECK(format_timeouts(std::nullopt) == "-");

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
