#include "runner/game/game_loop.hpp"
#include "runner/game/protocol.hpp"
#include "runner/game/replay.hpp"

#include <doctest/doctest.h>

#include <functional>
#include <memory>
#include <sstream>
#include <thread>

using namespace gol;
using namespace gol::runner;

namespace {

// Answers each board with whatever the script says, and remembers what it was shown.
class ScriptedMover : public Mover {
public:
    using Script = std::function<MoveReport(int tick, const std::string& json)>;
    explicit ScriptedMover(Script script) : script_(std::move(script)) {}
    MoveReport move(const Board& board, int seat, int tick) override {
        std::string json;
        encode_board(board, seat, tick, json);
        seen.push_back(json);
        return script_(tick, json);
    }
    std::vector<std::string> seen;

private:
    Script script_;
};

MoveReport cells(std::vector<Cell> c) {
    MoveReport r;
    r.cells = std::move(c);
    return r;
}

MoveReport forfeit(ForfeitKind kind) {
    MoveReport r;
    r.forfeit = Forfeit{kind, "scripted"};
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

TEST_CASE("game: a disconnection ends the game after its generation, won by the other seat") {
    // Seat 1 leaves at tick 2: seat 2 is not asked that tick, the generation is computed, seat 2 wins.
    ScriptedMover one([](int tick, const std::string&) {
        return tick == 2 ? forfeit(ForfeitKind::disconnected) : cells({{0, 0}, {0, 1}, {1, 0}, {1, 1}});
    });
    ScriptedMover two = block_at(5, 5);
    ReplayHeader header{{"one", "two"}, {"h1", "h2"}, {10, 10, 50}, 1, 1000};
    ReplayRecorder recorder(header);
    GameResult r = play_game(one, two, header.config, recorder);
    recorder.finish(r);
    CHECK(r.verdict.winner_seat == 2);
    CHECK(r.verdict.reason == EndReason::forfeit);
    CHECK(r.generations == 3);
    CHECK(r.cells == std::array<std::int64_t, 2>{4, 4});
    CHECK(two.seen.size() == 2);

    // Its replay reads back and plays again to the same end.
    std::istringstream in(replay_text(recorder.record()));
    const Replay replay = read_replay(in);
    CHECK(replay.result.verdict.reason == EndReason::forfeit);
    CHECK(same_result(resimulate(replay), r));

    // A result that claims a forfeit the last tick does not hold is refused.
    std::string text = replay_text(recorder.record());
    const auto at = text.find("\"forfeit\":\"disconnected\"");
    REQUIRE(at != std::string::npos);
    text.replace(at, 26, "\"forfeit\":\"timeout\"");
    std::istringstream tampered(text);
    CHECK_THROWS_AS(read_replay(tampered), ReplayError);
}

TEST_CASE("game: the second seat's disconnection ends its tick too") {
    ScriptedMover one = block_at(0, 0);
    ScriptedMover two([](int tick, const std::string&) {
        return tick == 0 ? forfeit(ForfeitKind::disconnected) : cells({});
    });
    GameObserver none;
    GameResult r = play_game(one, two, {10, 10, 50}, none);
    CHECK(r.verdict.winner_seat == 1);
    CHECK(r.verdict.reason == EndReason::forfeit);
    CHECK(r.generations == 1);
    CHECK(r.forfeits == std::array<int, 2>{0, 1});
}

TEST_CASE("game: a move that fails after the stop was asked for is the stop's, one before it is its own") {
    // On the heap: g++ 12 at -Og warns that a stop_source on the stack may be used uninitialized.
    const auto stop = std::make_unique<std::stop_source>();
    ScriptedMover failing([source = stop.get()](int, const std::string&) -> MoveReport {
        source->request_stop();  // as a Ctrl-C does, before it kills the bots' processes
        throw std::runtime_error("the bot's launcher ended before it was ready");
    });
    ScriptedMover two = block_at(7, 7);
    GameObserver none;
    CHECK_THROWS_AS(play_game(failing, two, GameConfig{10, 10, 5}, none, stop->get_token()), GameInterrupted);

    ScriptedMover broken([](int, const std::string&) -> MoveReport { throw std::runtime_error("a runner fault"); });
    CHECK_THROWS_WITH_AS(play_game(broken, two, GameConfig{10, 10, 5}, none, std::stop_token()), "a runner fault",
                         std::runtime_error);
}

TEST_CASE("game: with a clock, the game ends after the generation in which its time ran out") {
    // Each move takes a little time, so a one-second clock ends the game long before its limit.
    ScriptedMover one([](int tick, const std::string&) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        if (tick == 0) return cells({{0, 0}, {0, 1}, {1, 0}, {1, 1}});
        return tick == 1 ? cells({{0, 5}, {0, 6}, {1, 5}, {1, 6}}) : cells({});
    });
    ScriptedMover two = block_at(7, 7);
    GameConfig config{10, 10, 100000};
    config.clock_s = 1;
    ReplayHeader header{{"one", "two"}, {"h1", "h2"}, config, 1, 1000};
    ReplayRecorder recorder(header);
    const GameResult r = play_game(one, two, config, recorder);
    recorder.finish(r);
    CHECK(r.verdict.reason == EndReason::clock);
    CHECK(r.verdict.winner_seat == 1);
    CHECK(r.generations < 100000);

    // Its replay plays again to the same end, where the record says the clock ran out.
    std::istringstream in(replay_text(recorder.record()));
    const Replay replay = read_replay(in);
    CHECK(replay.header.config.clock_s == 1);
    CHECK(same_result(resimulate(replay), r));

    // A clock's end in a game without a clock is refused.
    std::string text = replay_text(recorder.record());
    const auto at = text.find(",\"clock_s\":1");
    REQUIRE(at != std::string::npos);
    text.erase(at, 12);
    std::istringstream tampered(text);
    CHECK_THROWS_AS(read_replay(tampered), ReplayError);
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

    std::istringstream in(replay_text(recorder.record()));
    Replay replay = read_replay(in);
    CHECK(replay.header.bots == std::array<std::string, 2>{"alpha", "beta"});
    CHECK(replay.header.config.width == 12);
    CHECK(replay.header.config.height == 9);
    CHECK(replay.header.seed == 42);
    CHECK(replay.ticks.size() == static_cast<std::size_t>(played.generations));
    REQUIRE(replay.ticks[1][0].forfeit.has_value());
    CHECK(replay.ticks[1][0].forfeit->kind == ForfeitKind::not_json);
    // Off-board cells were never applied, so they are not in the replay.
    CHECK(replay.ticks[0][0].cells == std::vector<Cell>{{0, 0}, {0, 1}, {0, 2}});
    CHECK(same_result(replay.result, played));
    CHECK(same_result(resimulate(replay), played));

    // A tampered move changes the outcome, and re-simulation notices.
    std::string text = replay_text(recorder.record());
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

TEST_CASE("replay: the record is written in the replay format and reads back as written") {
    Replay r;
    r.header = {{"a", "b"}, {"h1", "h2"}, {5, 5, 2}, 0, 1000};
    r.ticks = {{Move{{{0, 0}}, {}}, Move{{}, Forfeit{ForfeitKind::timeout, "x"}}}, {Move{}, Move{}}};
    r.result = {{1, EndReason::extinction}, 2, {1, 0}, {0, 1}};
    const std::string text = replay_text(r);
    CHECK(text ==
          R"({"bots":[{"hash":"h1","name":"a","seat":1},{"hash":"h2","name":"b","seat":2}],"format":"gol-replay",)"
          R"("generations":2,"height":5,"rules":"ppcg2016-1","seed":0,"time_limit_ms":1000,"version":1,"width":5})"
          "\n"
          R"({"t":0,"moves":[[[0,0]],{"detail":"x","forfeit":"timeout"}]})"
          "\n"
          R"({"t":1,"moves":[[],[]]})"
          "\n"
          R"({"result":{"cells":[1,0],"forfeits":[0,1],"generations":2,"reason":"extinction","winner":1}})"
          "\n");
    std::istringstream in(text);
    const Replay back = read_replay(in);
    CHECK(back.ticks == r.ticks);
    CHECK(same_result(back.result, r.result));
    CHECK(nlohmann::json(back.header) == nlohmann::json(r.header));

    // What the reader refuses rather than reads as a default.
    auto error = [&](const std::string& from, const std::string& to) -> std::string {
        std::string changed = text;
        const auto at = changed.find(from);
        REQUIRE(at != std::string::npos);
        std::istringstream bad(changed.replace(at, from.size(), to));
        try {
            read_replay(bad);
        } catch (const ReplayError& e) {
            return e.what();
        }
        return "";
    };
    CHECK(error(R"("reason":"extinction")", R"("reason":"resigned")") ==
          R"(line 4: "reason" is "resigned", not "extinction", "generations" or "forfeit")");
    CHECK(error(R"("reason":"extinction")", R"("reason":"forfeit")") ==
          "the result says the game ended by forfeit, but its last tick holds no disconnection of the losing seat");
    CHECK(error(R"("forfeit":"timeout")", R"("forfeit":"slow")") == R"(line 2: unknown forfeit "slow")");
    CHECK(error(R"("version":1)", R"("version":2)") == "line 1: replay version 2 is not supported");
    CHECK(error(R"("cells":[1,0])", R"("cells":[1.5,0])") == R"(line 4: "cells" is 1.5, not an integer)");
}

TEST_CASE("replay: board_at plays the game loop to the generation asked for") {
    Replay r;
    r.header.config = {6, 6, 3};
    // A blinker, then nothing: it turns each generation.
    r.ticks = {{Move{{{2, 1}, {2, 2}, {2, 3}}, {}}, Move{}}, {Move{}, Move{}}, {Move{}, Move{}}};
    r.result = resimulate(r);
    REQUIRE(r.result.verdict.reason == EndReason::extinction);  // seat 2 never had a cell
    REQUIRE(r.result.generations == 1);
    const Board start = board_at(r, 0);
    CHECK(start.population(Player::one) == 0);
    const Board one = board_at(r, 1);
    CHECK(one.at(1, 2) == Player::one);
    CHECK(one.at(2, 1) == Player::none);
    CHECK_THROWS_AS(board_at(r, 2), ReplayError);
}

TEST_CASE("replay: board_sent gives each seat's JSON of each tick byte for byte as the game sent it") {
    // Two scripted players whose moves are recorded, and the JSON each was sent kept.
    ScriptedMover one([](int tick, const std::string&) {
        return tick == 0 ? cells({{1, 1}, {1, 2}, {2, 1}, {2, 2}}) : tick == 1 ? cells({{0, 6}, {0, 7}}) : cells({});
    });
    ScriptedMover two([](int tick, const std::string&) {
        return tick == 0 ? cells({{5, 5}, {5, 6}, {6, 5}, {6, 6}}) : tick == 1 ? cells({{7, 0}}) : cells({});
    });
    ReplayRecorder recorder(ReplayHeader{{"one", "two"}, {"a", "b"}, GameConfig{8, 8, 3}, 1, 1000});
    const GameResult result = play_game(one, two, GameConfig{8, 8, 3}, recorder);
    recorder.finish(result);
    const Replay& replay = recorder.record();
    REQUIRE(result.generations == 3);
    for (int tick = 0; tick < 3; ++tick) {
        CHECK(board_sent(replay, tick, 1) == one.seen[static_cast<std::size_t>(tick)]);
        CHECK(board_sent(replay, tick, 2) == two.seen[static_cast<std::size_t>(tick)]);
    }
    // Seat 2 sees seat 1's cells of the same tick.
    CHECK(board_sent(replay, 1, 2).find("\"(0,6)\":1") != std::string::npos);
    CHECK_THROWS_WITH_AS(board_sent(replay, 3, 1), "tick 3 is not in the game: it has ticks 0..2", ReplayError);
    CHECK_THROWS_WITH_AS(board_sent(replay, -1, 1), "tick -1 is not in the game: it has ticks 0..2", ReplayError);
    CHECK_THROWS_WITH_AS(board_sent(replay, 0, 3), "seat 3: a seat is 1 or 2", ReplayError);
}

TEST_CASE("replay: board_sent gives seat 2 nothing at the tick seat 1 was disconnected in") {
    Replay r;
    r.header.config = {6, 6, 3};
    r.ticks = {{Move{{{2, 1}, {2, 2}, {2, 3}}, {}}, Move{{{4, 4}, {4, 5}, {5, 4}, {5, 5}}, {}}},
               {Move{{}, Forfeit{ForfeitKind::disconnected, "it left"}}, Move{}}};
    r.result = resimulate(r);
    REQUIRE(r.result.verdict.reason == EndReason::forfeit);
    CHECK(board_sent(r, 1, 1).find("\"bot_id\":1") != std::string::npos);
    CHECK(board_sent(r, 1, 2).empty());
    CHECK(board_sent(r, 0, 2).find("\"(2,2)\":1") != std::string::npos);
}
