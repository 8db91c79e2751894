// The time bank's accounting (docs/rules.md, "Time bank"): scripted moves that report how long
// they took, so no clock is read.
#include "runner/game/game_loop.hpp"
#include "runner/game/replay.hpp"
#include "runner/game/time_bank.hpp"

#include <doctest/doctest.h>

#include <functional>
#include <sstream>
#include <vector>

using namespace gol::runner;
using std::chrono::milliseconds;

namespace {

// Answers with the script's move, and counts the ticks it was asked at and what it was told was
// left of its bank before each (nullopt: no bank).
class TimedMover : public Mover {
public:
    using Script = std::function<MoveReport(int tick)>;
    explicit TimedMover(Script script) : script_(std::move(script)) {}
    void limit_next_move(std::optional<BankLeft> left) override { told.push_back(left); }
    MoveReport move(const gol::Board&, int, int tick) override {
        asked.push_back(tick);
        return script_(tick);
    }
    std::vector<int> asked;
    std::vector<std::optional<BankLeft>> told;

private:
    Script script_;
};

// A move of no cells that took `ms`.
MoveReport took(int ms) {
    MoveReport r;
    r.elapsed = milliseconds(ms);
    return r;
}

// Each move's forfeit by tick and seat, as the game's observers see them.
struct Forfeits : GameObserver {
    std::vector<std::array<std::optional<Forfeit>, 2>> ticks;
    void on_move(int tick, int seat, const MoveReport& move) override {
        if (static_cast<int>(ticks.size()) <= tick) ticks.resize(static_cast<std::size_t>(tick) + 1);
        ticks[static_cast<std::size_t>(tick)][static_cast<std::size_t>(seat - 1)] = move.forfeit;
    }
};

GameConfig banked(int generations, int bank_s) {
    GameConfig c{10, 10, generations};
    c.time_bank_s = bank_s;
    return c;
}

}  // namespace

TEST_CASE("time bank: spent once a seat's moves reach it, exactly the bank included, each seat on its own") {
    TimeBank bank(1);
    CHECK_FALSE(bank.spent(1));
    bank.charge(1, milliseconds(400));
    bank.charge(1, milliseconds(599));
    CHECK_FALSE(bank.spent(1));  // 1 ms left: the next move still runs
    bank.charge(1, milliseconds(1));
    const std::optional<Forfeit> spent = bank.spent(1);  // exactly the bank: nothing left
    REQUIRE(spent);
    CHECK(spent->kind == ForfeitKind::time_bank);
    CHECK(spent->detail == "time bank of 1 s spent (its moves took 1.0 s): the bot is not run again this game");
    CHECK_FALSE(bank.spent(2));

    TimeBank none(0);  // off: nothing is ever spent
    none.charge(1, std::chrono::hours(10));
    CHECK_FALSE(none.spent(1));
}

TEST_CASE("time bank: once spent, the seat's later moves are forfeited without asking its mover") {
    // Seat 1's moves take 300 ms: 0.3, 0.6, 0.9, then 1.2 s over the 1 s bank after tick 3.
    TimedMover one([](int) { return took(300); });
    TimedMover two([](int) { return took(0); });
    Forfeits seen;
    const GameResult r = play_game(one, two, banked(8, 1), seen);
    CHECK(one.asked == std::vector<int>{0, 1, 2, 3});
    CHECK(two.asked.size() == 8);  // a bank of no time spent is never spent
    CHECK(r.generations == 8);
    CHECK(r.forfeits == std::array<int, 2>{4, 0});
    REQUIRE(seen.ticks.size() == 8);
    CHECK_FALSE(seen.ticks[3][0]);
    for (int t = 4; t < 8; ++t) {
        REQUIRE(seen.ticks[static_cast<std::size_t>(t)][0]);
        CHECK(*seen.ticks[static_cast<std::size_t>(t)][0] ==
              Forfeit{ForfeitKind::time_bank,
                      "time bank of 1 s spent (its moves took 1.2 s): the bot is not run again this game"});
    }

    // Per game: the same movers in a new game start with the whole bank again.
    one.asked.clear();
    play_game(one, two, banked(2, 1), seen);
    CHECK(one.asked == std::vector<int>{0, 1});
}

TEST_CASE("time bank: before each move, the mover is told what is left of its seat's bank") {
    // Seat 1's moves take 300 ms of a 1 s bank; seat 2's take none.
    TimedMover one([](int) { return took(300); });
    TimedMover two([](int) { return took(0); });
    GameObserver none;
    play_game(one, two, banked(6, 1), none);
    // Told before each move it was asked for, and not before those of its spent bank.
    REQUIRE(one.told.size() == 4);
    for (std::size_t i = 0; i < one.told.size(); ++i) {
        REQUIRE(one.told[i]);
        CHECK(one.told[i]->left == milliseconds(1000 - 300 * static_cast<int>(i)));
        CHECK(one.told[i]->bank_s == 1);
    }
    REQUIRE(two.told.size() == 6);
    CHECK(two.told[5]->left == milliseconds(1000));

    TimeBank bank(1);  // 1 ms left is still some; none once spent
    bank.charge(1, milliseconds(999));
    CHECK(bank.left(1)->left == milliseconds(1));
    bank.charge(1, milliseconds(1));
    CHECK_FALSE(bank.left(1));

    // Without a bank, told so before every move: its own limit alone.
    TimedMover plain([](int) { return took(300); });
    play_game(plain, two, GameConfig{10, 10, 3}, none);
    CHECK(plain.told == std::vector<std::optional<BankLeft>>(3));
}

TEST_CASE("time bank: a forfeited move's time counts, a move of a mover that ignores what is left runs to its end") {
    // A 700 ms timeout, then a 2 s first move of the other seat: both moves are taken whole,
    // and each seat's next move after its bank is spent is forfeited.
    TimedMover one([](int tick) {
        MoveReport r = took(700);
        if (tick == 0) r.forfeit = Forfeit{ForfeitKind::timeout, "scripted"};
        return r;
    });
    TimedMover two([](int tick) { return took(tick == 0 ? 2000 : 0); });
    Forfeits seen;
    const GameResult r = play_game(one, two, banked(4, 1), seen);
    CHECK(one.asked == std::vector<int>{0, 1});
    CHECK(two.asked == std::vector<int>{0});
    CHECK(r.forfeits == std::array<int, 2>{3, 3});
    CHECK(seen.ticks[0][0]->kind == ForfeitKind::timeout);
    CHECK(seen.ticks[2][0]->detail == "time bank of 1 s spent (its moves took 1.4 s): the bot is not run again this game");
    CHECK(seen.ticks[1][1]->detail == "time bank of 1 s spent (its moves took 2.0 s): the bot is not run again this game");
}

TEST_CASE("time bank: without one, slow moves are never forfeited for it") {
    TimedMover one([](int) { return took(60'000); });
    TimedMover two([](int) { return took(60'000); });
    GameObserver none;
    const GameResult r = play_game(one, two, GameConfig{10, 10, 5}, none);
    CHECK(one.asked.size() == 5);
    CHECK(r.forfeits == std::array<int, 2>{0, 0});
}

TEST_CASE("time bank: the replay header records it, and a game with its forfeits plays again to the same end") {
    TimedMover one([](int tick) {
        MoveReport r = took(600);
        if (tick == 0) r.cells = {{0, 0}, {0, 1}, {1, 0}, {1, 1}};
        return r;
    });
    TimedMover two([](int tick) {
        MoveReport r = took(0);
        if (tick == 0) r.cells = {{5, 5}, {5, 6}, {6, 5}, {6, 6}};
        return r;
    });
    ReplayHeader header{{"one", "two"}, {"h1", "h2"}, banked(6, 1), 1, 1000};
    ReplayRecorder recorder(header);
    const GameResult r = play_game(one, two, header.config, recorder);
    recorder.finish(r);
    CHECK(r.forfeits == std::array<int, 2>{4, 0});

    const std::string text = replay_text(recorder.record());
    CHECK(text.find("\"time_bank_s\":1") != std::string::npos);
    std::istringstream in(text);
    const Replay replay = read_replay(in);
    CHECK(replay.header.config.time_bank_s == 1);
    CHECK(replay.ticks[5][0].forfeit->kind == ForfeitKind::time_bank);
    CHECK(same_result(resimulate(replay), r));

    // Without a bank the header has no such field; a bad one is refused by name.
    header.config.time_bank_s = 0;
    const nlohmann::json plain = header;
    CHECK_FALSE(plain.contains("time_bank_s"));
    nlohmann::json bad = plain;
    bad["time_bank_s"] = 0;
    CHECK_THROWS_AS(bad.get<ReplayHeader>(), RecordError);
    bad["time_bank_s"] = "60";
    CHECK_THROWS_AS(bad.get<ReplayHeader>(), RecordError);
}
