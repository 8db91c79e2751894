// The progress display: never wider than the terminal, silent in a pipe but for a league's line
// per finished game.
#include "runner/report/progress.hpp"

#include <doctest/doctest.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

using namespace gol::runner;

namespace {

// A FILE* whose bytes the test reads back.
class Capture {
public:
    std::FILE* file() const { return file_.get(); }
    std::string text() const {
        std::fflush(file());
        std::string all(static_cast<std::size_t>(std::ftell(file())), '\0');
        std::rewind(file());
        all.resize(std::fread(all.data(), 1, all.size(), file()));
        std::fseek(file(), 0, SEEK_END);
        return all;
    }

private:
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> file_{std::tmpfile(), &std::fclose};
};

// The rows a terminal would show after each redraw: the text between the redraws' \r\033[K.
std::vector<std::string> drawn_rows(const std::string& out) {
    std::vector<std::string> rows;
    const std::string redraw = "\r\033[K";
    for (std::size_t at = out.find(redraw); at != std::string::npos;) {
        const std::size_t from = at + redraw.size();
        at = out.find(redraw, from);
        rows.push_back(out.substr(from, at == std::string::npos ? std::string::npos : at - from));
    }
    return rows;
}

GameResult won_by(int seat, int generations) {
    GameResult r;
    r.verdict = {seat, seat == 0 ? EndReason::generations : EndReason::extinction};
    r.generations = generations;
    return r;
}

const GameWhen kWhen{"2026-11-27T03:17:02Z", std::chrono::milliseconds(252'400)};

}  // namespace

TEST_CASE("a live line stays a column short of the terminal's width, read again at each redraw") {
    Capture out;
    int columns = 20;
    {
        ProgressDisplay display(out.file(), true, [&] { return columns; });
        display.show(std::string(50, 'x'));
        display.show(std::string(50, 'x'));  // the same row again: not redrawn
        columns = 10;                        // the terminal got narrower
        display.show(std::string(50, 'y'));
        display.log("a line for a log");     // a terminal has the live line instead
    }
    const std::string text = out.text();
    CHECK(text == "\r\033[K" + std::string(19, 'x') + "\r\033[K" + std::string(9, 'y') + "\r\033[K");
    CHECK(text.find('\n') == std::string::npos);
}

TEST_CASE("in a pipe the display shows no live line, only the lines for a log") {
    Capture out;
    {
        ProgressDisplay display(out.file(), false, [] { return 20; });
        display.show("tick 5/10");
        display.log("a line longer than the twenty columns, kept whole");
    }
    CHECK(out.text() == "a line longer than the twenty columns, kept whole\n");
}

TEST_CASE("a duel's line fits 80 and 40 columns: the rate goes first, then words, then names are cut") {
    GameProgressState s;
    s.generation = 1234;
    s.generations = 10000;
    s.names = {"alpha", "beta"};
    s.cells = {1996, 970};
    s.forfeits = {0, 3};
    s.moves_per_second = 412.4;
    s.left = std::chrono::seconds(185);
    CHECK(game_progress_line(s, 80) == "tick 1234/10000  alpha 1996  beta 970  forfeits 0/3  412 moves/s  3m05s left");
    CHECK(game_progress_line(s, 40) == "1234/10000 alpha 1996 beta 970 f0/3");
    s.names = {"a_glider_gun_with_a_long_name", "beta"};
    CHECK(game_progress_line(s, 80) == "1234/10000 a_glider_gun_with_a_long_name 1996 beta 970 f0/3 3m05s");
    CHECK(game_progress_line(s, 40) == "1234/10000 a_glider~ 1996 beta 970 f0/3");
    s.names = {"a_glider_gun_with_a_long_name", "another_very_long_bot_name"};
    CHECK(game_progress_line(s, 80) ==
          "tick 1234/10000  a_glider_gu~ 1996  another_very~ 970  forfeits 0/3  3m05s left");
    CHECK(game_progress_line(s, 40) == "1234/10000 a_gli~ 1996 anothe~ 970 f0/3");
    for (int columns : {80, 40, 20, 1}) CHECK(static_cast<int>(game_progress_line(s, columns).size()) <= columns - 1);
}

TEST_CASE("a duel's live line is redrawn within the terminal's width") {
    Capture out;
    {
        GameProgress progress(out.file(), {"a_glider_gun_with_a_long_name", "another_very_long_bot_name"}, 10, true,
                              [] { return 40; });
        progress.on_move(1, 1, MoveReport{});
        progress.on_generation(1, 3, 4);
    }
    const std::vector<std::string> rows = drawn_rows(out.text());
    REQUIRE(rows.size() == 2);  // the line, then the clearing at the end
    CHECK(rows[0].starts_with("1/10 a_glider_"));
    CHECK(rows[0].find(" f0/0") != std::string::npos);
    CHECK(rows[0].size() <= 39);
}

TEST_CASE("a duel's progress writes nothing to a file") {
    Capture out;
    {
        GameProgress progress(out.file(), {"alpha", "beta"}, 10);
        for (int g = 1; g <= 10; ++g) {
            progress.on_move(g, 1, MoveReport{});
            progress.on_generation(g, 3, 4);
        }
    }
    CHECK(out.text().empty());
}

TEST_CASE("in a pipe a league writes one line per finished game: who played, the result, n of N") {
    Capture out;
    {
        LeagueProgressDisplay progress(out.file(), false, [] { return 80; });
        progress.league_started({5, 2, 0, 0});
        progress.game_started({5, 2, 0, 1});
        progress.game_started({5, 2, 0, 2});
        progress.game_finished({{"alpha", "beta"}, won_by(2, 12), {5, 3, 1, 1}, kWhen});
        progress.game_abandoned({5, 3, 1, 0});  // interrupted: no line
        progress.game_started({5, 3, 1, 1});
        progress.game_finished({{"beta", "gamma"}, won_by(0, 1), {5, 4, 2, 0}, kWhen});
        progress.league_done();
    }
    CHECK(out.text() ==
          "league: 3/5 alpha vs beta: beta won by extinction after 12 generations (started 2026-11-27T03:17:02Z, took 4m12s)\n"
          "league: 4/5 beta vs gamma: draw after 1 generation (started 2026-11-27T03:17:02Z, took 4m12s)\n");
}

TEST_CASE("a league's line escapes control characters in names") {
    Capture out;
    {
        LeagueProgressDisplay progress(out.file(), false, [] { return 80; });
        progress.league_started({1, 0, 0, 0});
        progress.game_started({1, 0, 0, 1});
        progress.game_finished({{"evil\x1b[2J\r", "ok"}, won_by(1, 7), {1, 1, 1, 0}, kWhen});
        progress.league_done();
    }
    const std::string text = out.text();
    CHECK(text == "league: 1/1 evil\\x1b[2J\\x0d vs ok: evil\\x1b[2J\\x0d won by extinction after 7 generations (started "
                  "2026-11-27T03:17:02Z, took 4m12s)\n");
}

TEST_CASE("a league's live line stays within the terminal and is cleared when the league is done") {
    Capture out;
    LeagueProgressDisplay progress(out.file(), true, [] { return 30; });
    progress.league_started({5, 2, 0, 0});
    progress.game_started({5, 2, 0, 1});
    progress.game_finished({{"alpha", "beta"}, won_by(1, 12), {5, 3, 1, 0}, kWhen});
    progress.league_done();
    const std::string text = out.text();
    CHECK(text.find('\n') == std::string::npos);  // no line per game on a terminal
    const std::vector<std::string> rows = drawn_rows(text);
    REQUIRE(rows.size() >= 3);
    for (const std::string& row : rows) CHECK(row.size() <= 29);
    CHECK(rows.front() == "league: 2/5 games done, 0 run");
    CHECK(rows[rows.size() - 2] == "league: 3/5 games done, 0 run");
    CHECK(rows.back().empty());  // cleared
}

TEST_CASE("a league's live line shows each event's counts, the games added by --until-separated among them") {
    Capture out;
    LeagueProgressDisplay progress(out.file(), true, [] { return 40; });
    progress.league_started({2, 0, 0, 0});
    progress.game_started({2, 0, 0, 1});
    progress.game_finished({{"alpha", "beta"}, won_by(1, 12), {2, 1, 1, 0}, kWhen});
    progress.game_started({2, 1, 1, 1});
    progress.game_finished({{"beta", "alpha"}, won_by(0, 12), {2, 2, 2, 0}, kWhen});
    progress.games_added({4, 2, 2, 0});  // a round of two more games
    progress.game_started({4, 2, 2, 1});
    progress.game_finished({{"alpha", "beta"}, won_by(0, 12), {4, 3, 3, 0}, kWhen});
    progress.league_done();
    const std::vector<std::string> rows = drawn_rows(out.text());
    REQUIRE(rows.size() >= 8);
    CHECK(rows[4].starts_with("league: 2/2 games done, 0 running"));
    CHECK(rows[5].starts_with("league: 2/4 games done, 0 running"));
    CHECK(rows[6].starts_with("league: 2/4 games done, 1 running"));
    CHECK(rows[7].starts_with("league: 3/4 games done, 0 running"));
}

TEST_CASE("a league's live line ends with the last game's result once one has finished") {
    Capture out;
    LeagueProgressDisplay progress(out.file(), true, [] { return 200; });
    progress.league_started({5, 2, 0, 0});
    progress.game_started({5, 2, 0, 1});
    progress.game_finished({{"alpha", "beta"}, won_by(1, 12), {5, 3, 1, 0}, kWhen});
    progress.game_started({5, 3, 1, 1});
    progress.league_done();
    const std::vector<std::string> rows = drawn_rows(out.text());
    REQUIRE(rows.size() >= 4);
    CHECK(rows[1].find("last:") == std::string::npos);  // no game finished yet
    CHECK(rows[2].starts_with("league: 3/5 games done, 0 running"));
    CHECK(rows[2].ends_with("; last: alpha vs beta: alpha won by extinction after 12 generations"));
    CHECK(rows[3].starts_with("league: 3/5 games done, 1 running"));
    CHECK(rows[3].ends_with("; last: alpha vs beta: alpha won by extinction after 12 generations"));
}

TEST_CASE("a league's live line estimates the time left from the generations played, within the first game") {
    Capture out;
    LeagueProgressDisplay progress(out.file(), true, [] { return 200; });
    progress.league_started({2, 0, 0, 0});
    progress.game_started({2, 0, 0, 1});
    progress.work_done({1500, 18500});  // a game of 10000 generations at 1500, and one not started
    progress.game_started({2, 0, 0, 2});
    progress.league_done();
    const std::vector<std::string> rows = drawn_rows(out.text());
    REQUIRE(rows.size() >= 3);
    CHECK(rows[1].ends_with("left ?"));  // no generation played yet
    CHECK(rows[2].find("left ~") != std::string::npos);
}
