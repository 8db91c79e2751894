// The viewer page, the leaderboard page and the board picture: what they hold, and that text
// from bots never reaches a page as markup.
#include "runner/report/board_png.hpp"
#include "runner/text/html_text.hpp"
#include "runner/report/leaderboard_page.hpp"
#include "runner/report/league_pages.hpp"
#include "runner/report/viewer_page.hpp"
#include "runner/sys/temp_dir.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>
#include <png.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

using namespace gol;
using namespace gol::runner;
using nlohmann::json;

namespace {

const std::string kHostile = "</script><script>alert(1)</script>";

std::size_t count(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

// A game of 12 generations: seat 1 places a blinker, seat 2 a block, seat 2 then forfeits a turn.
Replay sample_replay() {
    Replay r;
    r.header.bots = {kHostile, "<img src=x onerror=alert(1)>"};
    r.header.hashes = {"h1", "h2"};
    r.header.config = {12, 10, 12};
    r.ticks.resize(12);
    r.ticks[0][0].cells = {{1, 1}, {1, 2}, {1, 3}};
    r.ticks[0][1].cells = {{6, 6}, {6, 7}, {7, 6}, {7, 7}};
    r.ticks[3][1].forfeit = Forfeit{ForfeitKind::not_json, "printed " + kHostile};
    r.result = resimulate(r);
    return r;
}

json embedded_data(const std::string& page) {
    const std::string open = "<script type=\"application/json\" id=\"game-data\">";
    const std::size_t from = page.find(open);
    REQUIRE(from != std::string::npos);
    const std::size_t to = page.find("</script>", from);
    REQUIRE(to != std::string::npos);
    return json::parse(page.substr(from + open.size(), to - from - open.size()));
}

}  // namespace

TEST_CASE("viewer page: the game's data, this engine's counts, and hostile names kept as data") {
    const Replay replay = sample_replay();
    REQUIRE(replay.result.generations == 12);
    const std::string page = viewer_page(replay);
    for (const char* placeholder : {"/*@STYLE@*/", "/*@SCRIPT@*/", "@GAME_DATA@"})
        CHECK(page.find(placeholder) == std::string::npos);
    CHECK(page.find(kHostile) == std::string::npos);
    CHECK(page.find("<img") == std::string::npos);
    // Every script element the template opens is closed by the template: the assets and the
    // data add no </script of their own.
    CHECK(count(page, "<script") == count(page, "</script>"));
    CHECK(page.find("http://") == std::string::npos);
    CHECK(page.find("https://") == std::string::npos);

    const json data = embedded_data(page);
    CHECK(data["header"]["bots"][0]["name"] == kHostile);
    CHECK(data["header"]["width"] == 12);
    CHECK(data["header"]["height"] == 10);
    REQUIRE(data["moves"].size() == 12);
    CHECK(data["moves"][0][0] == json::parse("[[1,1],[1,2],[1,3]]"));
    CHECK(data["moves"][3][1]["forfeit"] == "not_json");
    CHECK(data["result"]["cells"] == json::array({3, 4}));
    REQUIRE(data["counts"].size() == 12);
    CHECK(data["counts"][11] == json::array({3, 4}));
    // Outside a league there is no leaderboard to link back to.
    CHECK(!data.contains("leaderboard"));
}

TEST_CASE("viewer page: a league's game names the leaderboard to link back to") {
    const Replay replay = sample_replay();
    const json data = embedded_data(viewer_page(replay, "../leaderboard.html"));
    CHECK(data["leaderboard"] == "../leaderboard.html");
    CHECK(data["counts"].size() == 12);
}

TEST_CASE("board_at: the board after each generation, the blinker turning") {
    const Replay replay = sample_replay();
    const Board start = board_at(replay, 0);
    CHECK(start.population(Player::one) == 0);
    CHECK(start.population(Player::two) == 0);
    const Board one = board_at(replay, 1);
    CHECK(one.at(0, 2) == Player::one);
    CHECK(one.at(2, 2) == Player::one);
    CHECK(one.at(1, 1) == Player::none);
    const Board last = board_at(replay, 12);
    CHECK(last.at(1, 1) == Player::one);
    CHECK(last.at(7, 7) == Player::two);
    CHECK(last.population(Player::one) == replay.result.cells[0]);
    CHECK_THROWS_AS(board_at(replay, 13), ReplayError);
    CHECK_THROWS_AS(board_at(replay, -1), ReplayError);
}

TEST_CASE("board PNG: scaled cells in the seats' colours") {
    CHECK(png_cell_size(Board(1000, 1000)) == 2);
    CHECK(png_cell_size(Board(100, 80)) == 16);
    CHECK(png_cell_size(Board(4096, 10)) == 1);

    Board board(10, 12);
    const std::vector<Cell> mine = {{2, 3}}, theirs = {{5, 9}};
    board.place(Player::one, mine);
    board.place(Player::two, theirs);
    const std::string bytes = board_png(board);
    REQUIRE(bytes.size() > 8);
    CHECK(bytes.compare(0, 8, "\x89PNG\r\n\x1a\n") == 0);

    png_image image{};
    image.version = PNG_IMAGE_VERSION;
    REQUIRE(png_image_begin_read_from_memory(&image, bytes.data(), bytes.size()));
    image.format = PNG_FORMAT_RGB;
    const int scale = png_cell_size(board);
    CHECK(image.width == static_cast<png_uint_32>(12 * scale));
    CHECK(image.height == static_cast<png_uint_32>(10 * scale));
    std::vector<unsigned char> pixels(PNG_IMAGE_SIZE(image));
    REQUIRE(png_image_finish_read(&image, nullptr, pixels.data(), 0, nullptr));
    auto pixel = [&](int cell_y, int cell_x) {
        const std::size_t i = ((static_cast<std::size_t>(cell_y) * scale + 1) * image.width + cell_x * scale + 1) * 3;
        return std::vector<int>{pixels[i], pixels[i + 1], pixels[i + 2]};
    };
    CHECK(pixel(2, 3) == std::vector<int>{77, 163, 255});
    CHECK(pixel(5, 9) == std::vector<int>{255, 122, 69});
    CHECK(pixel(0, 0) == std::vector<int>{16, 20, 26});
}

TEST_CASE("leaderboard page: standings, the pair matrix, links to each game, and everything escaped") {
    LeagueTable t;
    t.settings.config = {100, 80, 400};
    t.total = 2;
    GameRecord g;
    g.key = "k1";
    g.bots = {kHostile, "plain"};
    g.result.verdict = {1, EndReason::generations};
    g.result.generations = 400;
    g.result.cells = {50, 7};
    g.result.forfeits = {0, 2};
    g.forfeit_reasons[1] = {{"timeout", 2}};
    g.last_forfeit[1] = "timeout: </td><b>late</b>";
    t.games = {g};
    t.standings = compute_standings({kHostile, "plain"}, t.games, Scoring::wins);
    t.excluded = {{"<i>broken</i>", "bot.json: <img src=x onerror=alert(1)>"}};

    const std::string page = leaderboard_page(t, {"<b>cup</b>", std::chrono::sys_days{std::chrono::year{2026} / 3 / 4} +
                                                                   std::chrono::hours{5} + std::chrono::minutes{6} +
                                                                   std::chrono::seconds{7}});
    CHECK(page.find(kHostile) == std::string::npos);
    CHECK(page.find("<img") == std::string::npos);
    CHECK(page.find("<i>broken") == std::string::npos);
    CHECK(page.find("</td><b>late") == std::string::npos);
    CHECK(page.find(html_escape(kHostile)) != std::string::npos);
    CHECK(page.find("&lt;img src=x onerror=alert(1)&gt;") != std::string::npos);
    CHECK(page.find("id=\"standings\"") != std::string::npos);
    CHECK(page.find("id=\"matrix\"") != std::string::npos);
    CHECK(page.find("href=\"viewers/k1.html\"") != std::string::npos);
    CHECK(page.find("href=\"replays/k1.jsonl\"") != std::string::npos);
    CHECK(page.find(">1-0-0</span>") != std::string::npos);
    CHECK(page.find(">0-0-1</span>") != std::string::npos);
    CHECK(page.find("timeout 2") != std::string::npos);
    // 1-0 is fitted as 1.5-0.5 (the virtual draw): 400 log10(3) = 191 Elo apart, centred on 0.
    CHECK(page.find("<td class=\"elo\">+95</td><td>") != std::string::npos);
    CHECK(page.find("<td class=\"elo\">-95</td><td>") != std::string::npos);
    CHECK(page.find("<td class=\"los\">" + format_los(t.standings[0].los_next) + "</td>") != std::string::npos);
    CHECK(page.find("1 of 2 games played") != std::string::npos);
    // The heading: the tournament's name, as text, and when the page was written, in UTC.
    CHECK(page.find("<h1 id=\"tournament\">&lt;b&gt;cup&lt;/b&gt;</h1>") != std::string::npos);
    CHECK(page.find("<title>&lt;b&gt;cup&lt;/b&gt; &mdash; league table</title>") != std::string::npos);
    CHECK(page.find("page written 2026-03-04 05:06:07 UTC</p>") != std::string::npos);
    // One short row a game, numbered in schedule order: the cells sort by seat 1's, the forfeits
    // by their count, with the last forfeit's detail in the title.
    CHECK(page.find("<tr><td>1</td><td class=\"bot seat1\">") != std::string::npos);
    CHECK(page.find("<td data-sort=\"50\">50-7</td>") != std::string::npos);
    CHECK(page.find("title=\"last: timeout: &lt;/td&gt;&lt;b&gt;late&lt;/b&gt;\" data-sort=\"2\">2 (timeout 2)</td>") !=
          std::string::npos);
    // The games filter offers every bot, its name as text.
    CHECK(page.find("<option value=\"" + html_escape(kHostile) + "\">" + html_escape(kHostile) + "</option>") !=
          std::string::npos);
    CHECK(page.find("<option value=\"plain\">plain</option>") != std::string::npos);
    // The page's own script is its only one.
    CHECK(count(page, "<script") == 1);
    // The record keeps no time per move (an older runner's): the time columns say so.
    CHECK(page.find(">Timeouts/<wbr>near</th>") != std::string::npos);
    CHECK(page.find("<td>-</td><td>-</td><td>-</td><td>-</td></tr>") != std::string::npos);

    using us = std::chrono::microseconds;
    const MoveTiming plain{.moves = 400, .wall_total = us(2'000'000), .wall_max = us(950'000), .cpu_moves = 400,
                           .cpu_total = us(400'000), .cpu_max = us(2'000), .timeouts = 2, .near_timeouts = 1};
    t.games[0].timing = std::array<MoveTiming, 2>{MoveTiming{}, plain};
    t.standings = compute_standings({kHostile, "plain"}, t.games, Scoring::wins);
    CHECK(leaderboard_page(t, store_heading("cup")).find("<td>5.0</td><td>950.0</td><td>1.0</td><td>2/1</td></tr>") != std::string::npos);
}

TEST_CASE("league pages: a game's viewer page made or found is not looked for again; a missing one is made from its replay") {
    TempDir dir("league-pages");
    const ResultsStore store(dir.path() / "results");
    LeagueTable table;
    table.settings.games_per_pair = 0;  // an arena's, whose leaderboard is made again and again
    for (const char* key : {"found", "replayed", "lost"}) {
        GameRecord g;
        g.key = key;
        table.games.push_back(g);
    }
    std::filesystem::create_directories(store.viewer_path("found").parent_path());
    std::filesystem::create_directories(store.replay_path("replayed").parent_path());
    std::ofstream(store.viewer_path("found")) << "its page";
    std::ofstream(store.replay_path("replayed")) << replay_text(sample_replay());
    const std::unique_ptr<std::FILE, int (*)(std::FILE*)> log(std::tmpfile(), &std::fclose);
    REQUIRE(log);
    LeaguePages pages(log.get(), false);
    pages.run_finished(store, table);
    CHECK(std::filesystem::exists(store.viewer_path("replayed")));
    CHECK(std::filesystem::exists(store.dir() / "leaderboard.html"));
    // Both pages gone: neither is looked for, nor made, again; the one never made is tried again.
    std::filesystem::remove(store.viewer_path("found"));
    std::filesystem::remove(store.viewer_path("replayed"));
    pages.run_finished(store, table);
    CHECK_FALSE(std::filesystem::exists(store.viewer_path("found")));
    CHECK_FALSE(std::filesystem::exists(store.viewer_path("replayed")));
    std::rewind(log.get());
    std::string said;
    for (int c; (c = std::fgetc(log.get())) != EOF;) said += static_cast<char>(c);
    CHECK(count(said, "no viewer page for game lost") == 2);
    CHECK(count(said, "no viewer page for game found") == 0);
    CHECK(count(said, "no viewer page for game replayed") == 0);
}

TEST_CASE("leaderboard page: bots from git repositories, their commits and warnings, everything escaped") {
    LeagueTable t;
    t.settings.config = {20, 20, 10};
    GameRecord g;
    g.bots = {"alice", "plain"};
    g.key = "k1";
    g.result.generations = 10;
    g.commits = {"7d625ee2d6451bdda8b474559a5e5b1ec96fcc85", ""};
    t.games = {g, g};
    t.standings = compute_standings({"alice", "plain"}, t.games, Scoring::wins);
    t.repositories = {{"alice", "https://x/<script>a", "main", "7d625ee2d6451bdda8b474559a5e5b1ec96fcc85", ""},
                      {"<b>bob</b>", "https://x/b", "dev", "", "not fetched: git fetch failed: <img src=x>"}};
    const std::string page = leaderboard_page(t, {"cup", std::chrono::system_clock::now()});
    CHECK(page.find("<script>a") == std::string::npos);
    CHECK(page.find("<img") == std::string::npos);
    CHECK(page.find("<li><b>alice</b>: https://x/&lt;script&gt;a, branch main, plays commit "
                    "<code>7d625ee2d6451bdda8b474559a5e5b1ec96fcc85</code>; its games: 2 at <code>7d625ee2d645</code></li>") !=
          std::string::npos);
    CHECK(page.find("<p class=\"warning\">Warning: <b>&lt;b&gt;bob&lt;/b&gt;</b>: not fetched: git fetch failed: "
                    "&lt;img src=x&gt;.</p>") != std::string::npos);
    CHECK(page.find("branch dev, no commit <span class=\"warning\">") != std::string::npos);
    // A league without them has neither the list nor a warning.
    t.repositories.clear();
    const std::string plain = leaderboard_page(t, {"cup", std::chrono::system_clock::now()});
    CHECK(plain.find("id=\"repositories\"") == std::string::npos);
    CHECK(plain.find("Warning:") == std::string::npos);
}
