// `runner check`'s report: what it measures and how it judges, with movers that answer as told.
#include "runner/bots/bot_check.hpp"

#include <doctest/doctest.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

using namespace gol;
using namespace gol::runner;
using std::chrono::milliseconds;

namespace {

// Answers each move as `answer` says for the board's live cells and the seat.
class Answering : public Mover {
public:
    explicit Answering(std::function<MoveReport(std::int64_t cells, int seat)> answer) : answer_(std::move(answer)) {}
    MoveReport move(const Board& board, int seat, int) override {
        ++moves;
        return answer_(board.population(Player::one) + board.population(Player::two), seat);
    }
    int moves = 0;

private:
    std::function<MoveReport(std::int64_t, int)> answer_;
};

MoveReport valid(milliseconds elapsed, std::vector<Cell> cells = {{0, 0}}) {
    MoveReport m;
    m.cells = std::move(cells);
    m.elapsed = elapsed;
    return m;
}

MoveReport forfeit(ForfeitKind kind, std::string err = {}) {
    MoveReport m;
    m.forfeit = Forfeit{kind, "as told"};
    m.elapsed = milliseconds(1);
    m.err = std::move(err);
    return m;
}

GameConfig small_board() { return GameConfig{20, 20, 100}; }

CheckReport check(Mover& mover, RunMode mode, const GameConfig& config, bool sandboxed = false,
                  std::function<std::unique_ptr<Mover>()> make_cold = {}) {
    const CheckedBot bot{mover, mover, mode, std::move(make_cold)};
    return check_bot(bot, check_boards(config), CheckSettings{2, config.generations, sandboxed},
                     [](const CheckedMove&) {});
}

}  // namespace

TEST_CASE("bot check: the boards are empty, busy, over the argument limit where the board can hold one, and as "
          "dense as a late game") {
    const std::vector<CheckBoard> small = check_boards(small_board());
    REQUIRE(small.size() == 3);
    CHECK(small[0].board.population(Player::one) + small[0].board.population(Player::two) == 0);
    CHECK(small[1].board.population(Player::one) > 0);
    CHECK(small[1].board.population(Player::two) > 0);
    CHECK(small[2].late_game);
    CHECK_FALSE(small[2].over_argument_limit);
    const std::vector<CheckBoard> big = check_boards(GameConfig{1000, 1000, 100});
    REQUIRE(big.size() == 4);
    CHECK(big[2].over_argument_limit);
    // 30% of a million cells, as a late game of block builders has; over the argument limit too.
    const std::int64_t late = big[3].board.population(Player::one) + big[3].board.population(Player::two);
    CHECK(late > 290000);
    CHECK(late < 310000);
    CHECK(big[3].late_game);
    CHECK(big[3].over_argument_limit);
}

TEST_CASE("bot check: the late-game board is played once a seat, and its longest move and timeouts reported") {
    Answering bot([](std::int64_t cells, int) {
        return cells > 100 ? forfeit(ForfeitKind::timeout) : valid(milliseconds(cells > 50 ? 90 : 10));
    });
    const CheckReport r = check(bot, RunMode::per_move, small_board());
    REQUIRE(r.late_game);
    CHECK(r.late_game->live_cells > 100);
    CHECK(r.late_game->timeouts == 2);
    // Then the sparser boards, each once: none times out, so it does from the late game's 30% on.
    CHECK(r.moves == 2 * 2 * 2 + 2 + 3);
    CHECK(r.late_game->slow_from_percent == 30);
    CHECK(r.late_game->in_time_percent == 20);
    // Slowness on boards denser than games mostly reach is no broken protocol: the check passes.
    CHECK(r.timeouts == 2);
    CHECK(r.invalid == 0);
    CHECK(r.passes());
}

TEST_CASE("bot check: timeouts from a density below the late game's are reported from the sparsest that timed out") {
    // 20x20: 5% is about 20 cells, 10% 40; the busy board, answered in time, is another count.
    const Board busy = check_boards(small_board())[1].board;
    const std::int64_t busy_cells = busy.population(Player::one) + busy.population(Player::two);
    Answering bot([busy_cells](std::int64_t cells, int) {
        return cells > 30 && cells != busy_cells ? forfeit(ForfeitKind::timeout, std::to_string(cells))
                                                 : valid(milliseconds(5));
    });
    CheckReport r = check(bot, RunMode::per_move, small_board());
    REQUIRE(r.late_game);
    CHECK(r.late_game->slow_from_percent == 10);
    CHECK(r.late_game->slow_from_cells > 30);
    CHECK(r.late_game->in_time_percent == 5);
    CHECK(r.passes());
    // A bot in time everywhere tries no sparser board.
    Answering quick([](std::int64_t, int) { return valid(milliseconds(5)); });
    r = check(quick, RunMode::per_move, small_board());
    CHECK(r.late_game->slow_from_percent == 0);
    CHECK(r.moves == 10);
}

TEST_CASE("bot check: the sample boards come at the ticks a game has them, runs counting on from there") {
    const std::vector<CheckBoard> boards = check_boards(GameConfig{1000, 1000, 10000});
    CHECK(boards[0].tick == 0);
    CHECK(boards[1].tick == 1000);
    CHECK(boards[2].tick == 5000);
    CHECK(boards[3].tick == 9000);
    CHECK(boards[1].tick_of(2, 10000) == 1002);
    CHECK(boards[3].tick_of(5, 9003) == 9002);  // never past the game's last tick
    CheckBoard fixed{"board from --board", Board(5, 5)};
    fixed.tick = 7;
    fixed.same_tick = true;
    CHECK(fixed.tick_of(3, 100) == 7);
    std::vector<int> ticks;
    Answering bot([](std::int64_t, int) { return valid(milliseconds(1)); });
    const CheckedBot checked{bot, bot, RunMode::per_move, {}};
    check_bot(checked, check_boards(GameConfig{20, 20, 100}), CheckSettings{2, 100, false},
              [&](const CheckedMove& m) { ticks.push_back(m.tick); });
    CHECK(ticks == std::vector<int>{0, 1, 0, 1, 10, 11, 10, 11, 90, 90});
}

TEST_CASE("bot check: a failure repeated identically ends the check after a few moves; varied ones do not") {
    Answering same([](std::int64_t, int) { return forfeit(ForfeitKind::exit_status, "Traceback\nKeyError\n"); });
    CheckReport r = check(same, RunMode::per_move, small_board());
    CHECK(r.stopped);
    CHECK(r.moves == kSameFailureStop);
    CHECK(same.moves == kSameFailureStop);
    CHECK_FALSE(r.passes());
    int n = 0;
    Answering varied([&n](std::int64_t, int) { return forfeit(ForfeitKind::exit_status, std::to_string(++n)); });
    r = check(varied, RunMode::per_move, small_board());
    CHECK_FALSE(r.stopped);
    CHECK(r.moves == 10);
}

TEST_CASE("bot check: valid replies pass, each move told as made, the time per game from the median") {
    Answering bot([](std::int64_t, int) { return valid(milliseconds(20)); });
    std::vector<int> runs;
    const CheckedBot checked{bot, bot, RunMode::per_move, {}};
    const CheckReport r = check_bot(checked, check_boards(small_board()), CheckSettings{3, 100, false},
                                    [&](const CheckedMove& m) {
                                        runs.push_back(m.run);
                                        CHECK(m.applied == 1);
                                        CHECK(m.json_bytes > 0);
                                    });
    CHECK(bot.moves == 2 * 2 * 3 + 2);  // the late-game board once a seat
    CHECK(runs == std::vector<int>{0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 0});
    CHECK(r.moves == 14);
    CHECK(r.invalid == 0);
    CHECK(r.passes());
    CHECK(r.big_board == BigBoard::not_tried);
    CHECK(r.median == milliseconds(20));
    CHECK(r.per_game == std::chrono::seconds(2));
    CHECK(!r.slow);
    CHECK(!r.sandbox_refusals);
    CHECK(r.warm_against_cold.empty());
}

TEST_CASE("bot check: a forfeited move fails the check; in the sandbox its stderr's refusals are kept") {
    Answering bot([](std::int64_t, int) {
        return forfeit(ForfeitKind::exit_status, "Traceback\nOSError: [Errno 30] Read-only file system: 'state'\n\n");
    });
    CheckReport r = check(bot, RunMode::per_move, small_board(), true);
    CHECK_FALSE(r.passes());
    CHECK(r.invalid == r.moves);
    REQUIRE(r.sandbox_refusals);
    CHECK(*r.sandbox_refusals == std::vector<std::string>{"OSError: [Errno 30] Read-only file system: 'state'"});
    // Unsandboxed, the sandbox is not what failed it.
    CHECK_FALSE(check(bot, RunMode::per_move, small_board(), false).sandbox_refusals);
}

TEST_CASE("bot check: a persistent bot's timeouts are moves it may not have flushed") {
    Answering bot([](std::int64_t, int) { return forfeit(ForfeitKind::timeout); });
    // The same timeout each time: the check ends after kSameFailureStop of them.
    CHECK(check(bot, RunMode::persistent, small_board()).unflushed == kSameFailureStop);
    CHECK(check(bot, RunMode::per_move, small_board()).unflushed == 0);
    CHECK(check(bot, RunMode::per_move, small_board()).timeouts == kSameFailureStop);
}

TEST_CASE("bot check: slow moves, and whether starting the bot or its own work takes the time") {
    using Cause = SlowMoves::Cause;
    // Slow on the busy board only: the start-up, the empty board's time, is quick.
    Answering busy([](std::int64_t cells, int) { return valid(milliseconds(cells ? 300 : 5)); });
    CheckReport r = check(busy, RunMode::per_move, small_board());
    REQUIRE(r.slow);
    CHECK(r.slow->cause == Cause::own_work);
    CHECK(std::string(r.slow->slowest.what) == "busy board");
    CHECK(std::string(r.slow->fastest.what) == "empty board");
    CHECK(check(busy, RunMode::persistent, small_board()).slow->cause == Cause::persistent_work);
    // Slow on every board: starting it.
    Answering slow([](std::int64_t, int) { return valid(milliseconds(200)); });
    CHECK(check(slow, RunMode::per_move, small_board()).slow->cause == Cause::start_up);
    // Slow, but not twice the fastest: both.
    Answering both([](std::int64_t cells, int) { return valid(milliseconds(cells ? 150 : 90)); });
    CHECK(check(both, RunMode::per_move, small_board()).slow->cause == Cause::both);
    // Moves that time out say nothing of how long a reply takes.
    Answering timeouts([](std::int64_t cells, int) {
        return cells ? forfeit(ForfeitKind::timeout) : valid(milliseconds(5));
    });
    CHECK_FALSE(check(timeouts, RunMode::per_move, small_board()).slow);
}

TEST_CASE("bot check: a warm bot whose replies differ from its cold ones fails, one whose cold ones vary is not compared") {
    Answering warm([](std::int64_t, int) { return valid(milliseconds(1), {{1, 1}}); });
    CheckReport same = check(warm, RunMode::warm, small_board(), false, [] {
        return std::make_unique<Answering>([](std::int64_t, int) { return valid(milliseconds(1), {{1, 1}}); });
    });
    REQUIRE(same.warm_against_cold.size() == 4);
    CHECK(same.warm_against_cold[0].outcome == WarmAgainstCold::Outcome::same);
    CHECK(same.passes());

    CheckReport differ = check(warm, RunMode::warm, small_board(), false, [] {
        return std::make_unique<Answering>([](std::int64_t, int seat) { return valid(milliseconds(1), {{seat, 2}}); });
    });
    CHECK(differ.warm_differs() == 4);
    CHECK(differ.warm_against_cold[1].cold.cells == std::vector<Cell>{{2, 2}});
    CHECK_FALSE(differ.passes());

    int calls = 0;
    CheckReport varies = check(warm, RunMode::warm, small_board(), false, [&calls] {
        return std::make_unique<Answering>([&calls](std::int64_t, int) { return valid(milliseconds(1), {{++calls, 0}}); });
    });
    CHECK(varies.warm_against_cold[0].outcome == WarmAgainstCold::Outcome::varies);
    CHECK(varies.warm_differs() == 0);
}

TEST_CASE("bot check: timeouts warm and cold are the same reply, whatever their words") {
    // Each with words of its own: the same failure in a row would end the check before the comparison.
    int n = 0;
    const auto timeout = [&n](const char* words) {
        MoveReport m;
        m.forfeit = Forfeit{ForfeitKind::timeout, words + std::to_string(++n)};
        return m;
    };
    Answering warm([&](std::int64_t, int) { return timeout("no reply within the limit: the time went into its own work"); });
    CheckReport r = check(warm, RunMode::warm, small_board(), false, [&] {
        return std::make_unique<Answering>(
            [&](std::int64_t, int) { return timeout("no reply within the limit: most of it was starting python3"); });
    });
    REQUIRE(r.warm_against_cold.size() == 4);
    for (const WarmAgainstCold& w : r.warm_against_cold) CHECK(w.outcome == WarmAgainstCold::Outcome::same);
    CHECK(r.warm_differs() == 0);
    // A timeout against a reply is a difference.
    CheckReport differ = check(warm, RunMode::warm, small_board(), false, [] {
        return std::make_unique<Answering>([](std::int64_t, int) { return valid(milliseconds(1)); });
    });
    CHECK(differ.warm_differs() == 4);
}

TEST_CASE("bot check: a bot's stderr as lines, without the blank ones at its end") {
    CHECK(lines_of("").empty());
    CHECK(lines_of("one\n\ntwo\n  \n\n") == std::vector<std::string_view>{"one", "", "two"});
    CHECK(lines_of("no newline") == std::vector<std::string_view>{"no newline"});
}
