#include "runner/game/match.hpp"
#include "runner/game/replay.hpp"

#include <doctest/doctest.h>

#include <functional>
#include <sstream>

using namespace gol;
using namespace gol::runner;

namespace {

// Answers each board with whatever the script says, and remembers what it was shown.
class ScriptedMover : public Mover {
public:
    using Script = std::function<MoveResult(int tick, const std::string& json)>;
    explicit ScriptedMover(Script script) : script_(std::move(script)) {}
    MoveResult move(const std::string& json) override {
        seen.push_back(json);
        return script_(static_cast<int>(seen.size()) - 1, json);
    }
    std::vector<std::string> seen;

private:
    Script script_;
};

MoveResult cells(std::vector<Cell> c) {
    MoveResult r;
    r.ok = true;
    r.cells = std::move(c);
    return r;
}

MoveResult forfeit(ForfeitKind kind) {
    MoveResult r;
    r.forfeit = {kind, "scripted"};
    return r;
}

ScriptedMover idle() {
    return ScriptedMover([](int, const std::string&) { return cells({}); });
}

// A block at (y, x) on tick 0, then nothing: it lives for ever.
ScriptedMover block_at(int y, int x) {
    return ScriptedMover([=](int tick, const std::string&) {
        return tick == 0 ? cells({{y, x}, {y, x + 1}, {y + 1, x}, {y + 1, x + 1}}) : cells({});
    });
}

}  // namespace

TEST_CASE("judge: extinction, last generation, draw, both empty") {
    CHECK(judge(5, 0, 3, 100)->winner_seat == 1);
    CHECK(judge(5, 0, 3, 100)->reason == EndReason::extinction);
    CHECK(judge(0, 2, 3, 100)->winner_seat == 2);
    CHECK_FALSE(judge(5, 7, 3, 100).has_value());
    CHECK_FALSE(judge(0, 0, 3, 100).has_value());  // both empty: the game goes on
    CHECK(judge(5, 7, 100, 100)->winner_seat == 2);
    CHECK(judge(7, 5, 100, 100)->reason == EndReason::generations);
    CHECK(judge(0, 0, 100, 100)->winner_seat == 0);
    CHECK(judge(6, 6, 100, 100)->winner_seat == 0);
}

TEST_CASE("game: seat 2 sees seat 1's cells of the same tick, and the tick ids count from 0") {
    ScriptedMover one = block_at(0, 0);
    ScriptedMover two = block_at(5, 5);
    GameObserver none;
    play_game(one, two, {10, 10, 3}, none);
    REQUIRE(one.seen.size() == 3);
    REQUIRE(two.seen.size() == 3);
    CHECK(one.seen[0] == R"j({"y_size":10,"x_size":10,"board":{},"bot_id":1,"tick_id":0})j");
    CHECK(two.seen[0] ==
          R"j({"y_size":10,"x_size":10,"board":{"(0,0)":1,"(0,1)":1,"(1,0)":1,"(1,1)":1},"bot_id":2,"tick_id":0})j");
    CHECK(one.seen[2].ends_with(R"j("bot_id":1,"tick_id":2})j"));
}

TEST_CASE("game: a lone side wins by extinction after the first generation") {
    ScriptedMover one = block_at(2, 2);
    ScriptedMover two = idle();
    GameObserver none;
    GameResult r = play_game(one, two, {10, 10, 100}, none);
    CHECK(r.verdict.winner_seat == 1);
    CHECK(r.verdict.reason == EndReason::extinction);
    CHECK(r.generations == 1);
    CHECK(r.cells == std::array<std::int64_t, 2>{4, 0});
}

TEST_CASE("game: equal cells at the end are a draw, more cells win") {
    GameObserver none;
    ScriptedMover a = block_at(0, 0), b = block_at(6, 6);
    GameResult draw = play_game(a, b, {10, 10, 20}, none);
    CHECK(draw.verdict.winner_seat == 0);
    CHECK(draw.verdict.reason == EndReason::generations);
    CHECK(draw.generations == 20);

    ScriptedMover c = block_at(0, 0);
    ScriptedMover d([](int tick, const std::string&) {
        if (tick == 0) return cells({{6, 6}, {6, 7}, {7, 6}, {7, 7}});
        if (tick == 1) return cells({{0, 6}, {0, 7}, {1, 6}, {1, 7}});
        return cells({});
    });
    GameResult win = play_game(c, d, {10, 10, 20}, none);
    CHECK(win.verdict.winner_seat == 2);
    CHECK(win.cells == std::array<std::int64_t, 2>{4, 8});
}

TEST_CASE("game: a forfeited turn places nothing and is counted") {
    ScriptedMover one([](int tick, const std::string&) {
        return tick == 0 ? forfeit(ForfeitKind::timeout) : cells({{0, 0}, {0, 1}, {1, 0}, {1, 1}});
    });
    ScriptedMover two = block_at(5, 5);
    GameObserver none;
    GameResult r = play_game(one, two, {10, 10, 5}, none);
    CHECK(r.forfeits == std::array<int, 2>{1, 0});
    // Seat 1 had nothing after tick 0's generation: seat 2 won at once.
    CHECK(r.verdict.winner_seat == 2);
    CHECK(r.generations == 1);
}

TEST_CASE("game: placement skips off-board, occupied and repeated cells") {
    Board board(4, 4);
    std::vector<Cell> mine = {{1, 1}};
    board.place(Player::two, mine);
    CHECK(placeable_cells(board, {{-1, 0}, {1, 1}, {0, 0}, {0, 0}, {3, 4}, {3, 3}}) ==
          std::vector<Cell>{{0, 0}, {3, 3}});
}

TEST_CASE("replay: a recorded game reads back and re-simulates to the same result") {
    ScriptedMover one([](int tick, const std::string&) {
        if (tick == 1) return forfeit(ForfeitKind::not_json);
        return cells({{tick, 0}, {tick, 1}, {tick, 2}, {tick + 40, 3}});
    });
    ScriptedMover two([](int tick, const std::string&) { return cells({{5, tick}, {6, tick}, {5, tick + 1}}); });
    ReplayHeader header{{"alpha", "beta"}, {"h1", "h2"}, {12, 9, 30}, 42, 1000};
    ReplayRecorder recorder(header);
    GameResult played = play_game(one, two, header.config, recorder);
    recorder.finish(played);

    std::istringstream in(recorder.text());
    Replay replay = read_replay(in);
    CHECK(replay.header.bots == std::array<std::string, 2>{"alpha", "beta"});
    CHECK(replay.header.config.width == 12);
    CHECK(replay.header.config.height == 9);
    CHECK(replay.header.seed == 42);
    CHECK(replay.ticks.size() == static_cast<std::size_t>(played.generations));
    REQUIRE(replay.ticks[1][0].forfeit.has_value());
    CHECK(replay.ticks[1][0].forfeit->kind == ForfeitKind::not_json);
    // Off-board cells were never applied, so they are not in the replay.
    CHECK(replay.ticks[0][0].applied == std::vector<Cell>{{0, 0}, {0, 1}, {0, 2}});
    CHECK(same_result(replay.result, played));
    CHECK(same_result(resimulate(replay), played));

    // A tampered move changes the outcome, and re-simulation notices.
    std::string text = recorder.text();
    auto at = text.find("[[5,0],[6,0],[5,1]]");
    REQUIRE(at != std::string::npos);
    text.replace(at, 19, "[[5,0]]");
    std::istringstream tampered(text);
    Replay bad = read_replay(tampered);
    CHECK_FALSE(same_result(resimulate(bad), bad.result));
}

TEST_CASE("replay: broken files are rejected with the line") {
    std::istringstream empty("");
    CHECK_THROWS_WITH_AS(read_replay(empty), "empty file", ReplayError);
    std::istringstream garbage("not json\n");
    CHECK_THROWS_AS(read_replay(garbage), ReplayError);
    std::istringstream unfinished(
        R"({"format":"gol-replay","version":1,"bots":[{"name":"a"},{"name":"b"}],"width":5,"height":5,"generations":3})"
        "\n");
    CHECK_THROWS_WITH_AS(read_replay(unfinished), "no result line: the game did not finish", ReplayError);
}
