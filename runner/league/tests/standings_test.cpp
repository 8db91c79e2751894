#include "runner/league/league_schedule.hpp"
#include "runner/league/standings.hpp"
#include "runner/sys/temp_dir.hpp"
#include "runner/league/tournament.hpp"

#include "runner/testing/game_records.hpp"

#include <doctest/doctest.h>

#include <fstream>
#include <random>
#include <set>

using namespace gol::runner;
using gol::runner::testing::game;

namespace {

const Standing& row(const std::vector<Standing>& t, const std::string& bot) {
    for (const Standing& s : t)
        if (s.bot == bot) return s;
    FAIL("no row for " << bot);
    return t.front();
}

// Every figure of two standings' rows alike, exactly: the same bot at the same place.
void same_rows(const std::vector<Standing>& got, const std::vector<Standing>& want) {
    REQUIRE(got.size() == want.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
        INFO("row " << i + 1 << ": " << want[i].bot);
        CHECK(got[i].bot == want[i].bot);
        CHECK(got[i].rank == want[i].rank);
        CHECK(got[i].played == want[i].played);
        CHECK(got[i].wins == want[i].wins);
        CHECK(got[i].draws == want[i].draws);
        CHECK(got[i].losses == want[i].losses);
        CHECK(got[i].points == want[i].points);
        CHECK(got[i].forfeits == want[i].forfeits);
        CHECK(got[i].mean_cells == want[i].mean_cells);
        CHECK(got[i].elo == want[i].elo);
        CHECK(got[i].elo_interval == want[i].elo_interval);
        CHECK(got[i].los_next == want[i].los_next);
        CHECK(got[i].timing == want[i].timing);
    }
}

// A field's games with every kind of result, from a fixed seed: wins either way, draws, forfeits,
// timing in some records, a bot's game with itself and games of a bot no longer in the field.
std::vector<GameRecord> many_games(int n) {
    const std::vector<std::string> names = {"a", "b", "c", "d", "e", "gone"};
    std::mt19937 random(7);
    const auto pick = [&](int below) { return static_cast<int>(random() % static_cast<unsigned>(below)); };
    std::vector<GameRecord> games;
    for (int i = 0; i < n; ++i) {
        const std::string a = names[static_cast<std::size_t>(pick(6))], b = names[static_cast<std::size_t>(pick(6))];
        GameRecord g = game(a, b, pick(3), pick(50), pick(50), pick(3), pick(3));
        if (pick(2)) {
            MoveTiming t;
            t.moves = 1 + pick(100);
            t.wall_total = std::chrono::microseconds(pick(100000));
            t.timeouts = pick(2);
            g.timing = std::array{t, t};
        }
        games.push_back(std::move(g));
    }
    return games;
}

}  // namespace

TEST_CASE("standings: games added one at a time give exactly the standings of the whole set") {
    const std::vector<std::string> bots = {"a", "b", "c", "d", "e", "fresh"};
    const std::vector<GameRecord> games = many_games(300);
    for (Scoring scoring : {Scoring::wins, Scoring::points, Scoring::half, Scoring::kd}) {
        INFO("scoring " << name(scoring));
        StandingsTally tally;
        for (const std::string& b : bots) tally.add_bot(b);
        std::vector<GameRecord> so_far;
        for (const GameRecord& g : games) {
            tally.add(g);
            so_far.push_back(g);
            // As the arena asks for them: between games, at any time.
            if (so_far.size() % 50 == 0) same_rows(tally.standings(scoring), compute_standings(bots, so_far, scoring));
        }
        LeagueTable whole;
        whole.scoring = scoring;
        whole.games = games;
        whole.standings = compute_standings(bots, games, scoring);
        same_rows(tally.standings(scoring), whole.standings);

        // The ranks and points as counted by hand from the games.
        const Standing& a = row(whole.standings, "a");
        int wins = 0, draws = 0, losses = 0;
        for (const GameRecord& g : games)
            for (int seat = 1; seat <= 2; ++seat) {
                if (g.bots[seat - 1] != "a" || std::count(bots.begin(), bots.end(), g.bots[2 - seat]) == 0) continue;
                const int w = g.result.verdict.winner_seat;
                ++(w == 0 ? draws : w == seat ? wins : losses);
            }
        CHECK(a.wins == wins);
        CHECK(a.draws == draws);
        CHECK(a.losses == losses);
        CHECK(wins > 0);
        CHECK(draws > 0);
        CHECK(losses > 0);
        CHECK(row(whole.standings, "fresh").rank == static_cast<int>(bots.size()));

        // Each pair's counts, as the crosstable counts them from the games.
        const auto cross = crosstable(whole);
        for (std::size_t r = 0; r < whole.standings.size(); ++r)
            for (std::size_t c = 0; c < whole.standings.size(); ++c) {
                INFO(whole.standings[r].bot << " against " << whole.standings[c].bot);
                CHECK(tally.pair(whole.standings[r].bot, whole.standings[c].bot) == static_cast<const PairCounts&>(cross[r][c]));
            }
        CHECK(tally.pair("a", "b").wins + tally.pair("a", "b").draws + tally.pair("a", "b").losses > 0);

        // The ratings from the pairs' counts, as from each game between the field's bots.
        std::map<std::string, std::size_t> place;
        for (std::size_t i = 0; i < whole.standings.size(); ++i) place[whole.standings[i].bot] = i;
        std::vector<RatedGame> each;
        for (const GameRecord& g : games)
            if (place.contains(g.bots[0]) && place.contains(g.bots[1])) {
                const int w = g.result.verdict.winner_seat;
                each.push_back({place[g.bots[0]], place[g.bots[1]], w == 0 ? 0.5 : w == 1 ? 1.0 : 0.0});
            }
        const Ratings by_game(whole.standings.size(), each);
        for (std::size_t i = 0; i < whole.standings.size(); ++i) {
            REQUIRE(by_game.rated(i) == whole.standings[i].elo.has_value());
            if (by_game.rated(i)) CHECK(*whole.standings[i].elo == by_game.elo(i));
        }
    }
}

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

namespace {

// A tournament file in a folder of its own, written and read back.
struct TournamentFile {
    TempDir dir{"tournament-test"};
    std::filesystem::path write(const std::string& text) const {
        std::ofstream(dir.path() / "t.json") << text;
        return dir.path() / "t.json";
    }
    // What reading `text` throws, or "" when it reads.
    std::string error(const std::string& text) const {
        try {
            read_tournament(write(text));
        } catch (const TournamentError& e) {
            return std::string(e.what());
        }
        return std::string();
    }
};

}  // namespace

TEST_CASE("tournament files: fields, relative bots folder, and errors naming the field") {
    const TournamentFile f;
    const TempDir& dir = f.dir;
    auto write = [&](const std::string& text) { return f.write(text); };
    Tournament t = read_tournament(write(R"({"bots": "../bots", "width": 64, "generations": 300, "scoring": "kd",
                                              "games_per_pair": 4, "seed": 9, "time_limit_ms": 500})"));
    CHECK(*t.bots == (dir.path() / "../bots").lexically_normal());
    CHECK(*t.width == 64);
    CHECK_FALSE(t.height.has_value());
    CHECK(*t.scoring == "kd");
    CHECK(*t.seed == 9);
    CHECK(t.results_dir() == dir.path() / "t");
    auto error = [&](const std::string& text) { return f.error(text); };
    CHECK(error("{").find("invalid JSON") != std::string::npos);
    CHECK(error(R"({"seed": 1e99999})").find("invalid JSON") != std::string::npos);
    CHECK(error(R"({"widht": 5})").find("unknown key \"widht\"") != std::string::npos);
    CHECK(error(R"({"width": 0})").find("\"width\" is 0, not from 1 to 4096") != std::string::npos);
    CHECK(error(R"({"games_per_pair": 3})").find("\"games_per_pair\" is 3, not even") != std::string::npos);
    CHECK(error(R"({"scoring": "elo"})").find("\"scoring\" is \"elo\", not \"wins\", \"points\", \"half\" or \"kd\"") != std::string::npos);
    CHECK(error(R"({"seed": -1})").find("\"seed\"") != std::string::npos);
    CHECK(error(R"({"seed": 1})").find("t.json") == std::string::npos);  // valid: no error
    CHECK(error(R"({"time_mode": "cycles"})").find("\"time_mode\" is \"cycles\", not \"wall\" or \"cpu\"") != std::string::npos);
    CHECK(error(R"({"interpreters": "/opt/py2"})").find("\"interpreters\" is \"/opt/py2\", not a list of folders") != std::string::npos);
}

TEST_CASE("tournament files: start-up allowance, time mode and interpreters") {
    TempDir dir("tournament-timing-test");
    std::ofstream(dir.path() / "t.json")
        << R"({"startup_limit_ms": 20000, "time_mode": "cpu", "interpreters": ["/opt/py2", "local/ruby1"]})";
    const Tournament t = read_tournament(dir.path() / "t.json");
    CHECK(*t.startup_limit_ms == 20000);
    CHECK(*t.time_mode == "cpu");
    CHECK(*t.interpreters == std::vector<std::filesystem::path>{"/opt/py2", dir.path() / "local/ruby1"});
}

TEST_CASE("tournament files: every league option that is a setting of the tournament, and errors naming it") {
    const TournamentFile f;
    const TempDir& dir = f.dir;
    auto write = [&](const std::string& text) { return f.write(text); };
    Tournament t = read_tournament(write(R"({"jobs": 3, "sandbox": false, "cold": true, "until_separated": 40,
                                              "format": "markdown", "cache": "build-cache", "memory_limit_mb": 512,
                                              "cpu_limit_s": 2})"));
    CHECK(*t.jobs == 3);
    CHECK(*t.sandbox == false);
    CHECK(*t.cold == true);
    CHECK(*t.until_separated == 40);
    CHECK(*t.format == "markdown");
    CHECK(*t.cache == dir.path() / "build-cache");
    CHECK(*t.memory_limit_mb == 512);
    CHECK(*t.cpu_limit_s == 2);
    t = read_tournament(write("{}"));
    CHECK_FALSE(t.jobs.has_value());
    CHECK_FALSE(t.sandbox.has_value());
    auto error = [&](const std::string& text) { return f.error(text); };
    CHECK(error(R"({"jobs": 0})").ends_with("\"jobs\" is 0, not from 1 to 256"));
    CHECK(error(R"({"sandbox": "yes"})").ends_with("\"sandbox\" is \"yes\", not true or false"));
    CHECK(error(R"({"cold": 1})").ends_with("\"cold\" is 1, not true or false"));
    CHECK(error(R"({"until_separated": 1})").ends_with("\"until_separated\" is 1, not from 2 to 1000000"));
    CHECK(error(R"({"format": "yaml"})").ends_with(
        "\"format\" is \"yaml\", not \"text\", \"markdown\", \"json\", \"csv\" or \"html\""));
    CHECK(error(R"({"cache": ""})").ends_with("\"cache\" is \"\", not a folder path (relative to the file)"));
    // The list of keys in the error is the list the reader takes.
    CHECK(error(R"({"job": 2})").ends_with(
        "unknown key \"job\" (allowed: bots, width, height, generations, time_limit_ms, memory_limit_mb, cpu_limit_s, "
        "startup_limit_ms, time_mode, time_bank_s, games_per_pair, scoring, seed, interpreters, jobs, sandbox, cold, "
        "until_separated, format, cache, repositories)"));
}

TEST_CASE("tournament files: the time bank in whole seconds, 0 for none, and errors naming it") {
    const TournamentFile f;
    CHECK(*read_tournament(f.write(R"({"time_bank_s": 60})")).time_bank_s == 60);
    CHECK(*read_tournament(f.write(R"({"time_bank_s": 0})")).time_bank_s == 0);
    CHECK_FALSE(read_tournament(f.write("{}")).time_bank_s.has_value());
    const std::string range = "from 0 to 1000000";
    for (const char* bad : {R"({"time_bank_s": -1})", R"({"time_bank_s": 1000001})", R"({"time_bank_s": 2.5})",
                            R"({"time_bank_s": "60"})", R"({"time_bank_s": true})", R"({"time_bank_s": null})"}) {
        INFO(bad);
        CHECK(f.error(bad).ends_with(range));
        CHECK(f.error(bad).find("t.json: \"time_bank_s\" is ") != std::string::npos);
    }
    CHECK(f.error(R"({"time_bank": 60})").starts_with(f.dir.path().string() + "/t.json: unknown key \"time_bank\""));
}

TEST_CASE("standings: a likelihood of superiority as the tables and --until-separated's log write it") {
    CHECK(format_los(0.8321) == "83.2%");
    CHECK(format_los(std::nullopt) == "-");
}

TEST_CASE("standings: a bot without games ranks last, below bots with negative points") {
    // kd: b loses both games, -2 points; fresh has played nothing, 0 points.
    const std::vector<Standing> t =
        compute_standings({"a", "b", "fresh"}, {game("a", "b", 1), game("b", "a", 2)}, Scoring::kd);
    REQUIRE(t.size() == 3);
    CHECK(t[1].bot == "b");
    CHECK(t[2].bot == "fresh");
    CHECK(t[2].rank == 3);
}
