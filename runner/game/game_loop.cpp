#include "runner/game/game_loop.hpp"

#include "runner/game/time_bank.hpp"

#include <array>
#include <chrono>

namespace gol::runner {

std::string_view name(EndReason reason) {
    constexpr std::array<std::string_view, 4> names = {"extinction", "generations", "forfeit", "clock"};
    return names[static_cast<std::size_t>(reason)];
}

std::optional<EndReason> end_reason_from_name(std::string_view text) {
    for (EndReason r : {EndReason::extinction, EndReason::generations, EndReason::forfeit, EndReason::clock})
        if (name(r) == text) return r;
    return std::nullopt;
}

std::optional<Verdict> judge(std::int64_t cells1, std::int64_t cells2, int generation, int last_generation) {
    if ((cells1 == 0) != (cells2 == 0)) return Verdict{cells1 > 0 ? 1 : 2, EndReason::extinction};
    if (generation < last_generation) return std::nullopt;
    return Verdict{cells1 > cells2 ? 1 : cells2 > cells1 ? 2 : 0, EndReason::generations};
}

namespace {

using Clock = std::chrono::steady_clock;

GameResult play_on(Board& board, Mover& seat1, Mover& seat2, int generations, std::optional<Clock::time_point> clock_end,
                   TimeBank bank, GameObserver& observer, std::stop_token stop) {
    std::array<Mover*, 2> movers = {&seat1, &seat2};
    std::vector<Cell> applied;
    GameResult result;

    for (int tick = 0;; ++tick) {
        int lost = 0;  // the seat disconnected this tick
        for (int seat = 1; seat <= 2 && !lost; ++seat) {
            if (stop.stop_requested()) throw GameInterrupted();
            MoveReport move;
            if (std::optional<Forfeit> spent = bank.spent(seat)) {
                move.forfeit = std::move(spent);
            } else {
                try {
                    movers[seat - 1]->limit_next_move(bank.left(seat));
                    move = movers[seat - 1]->move(board, seat, tick);
                } catch (const std::exception&) {
                    // A stop kills the bots' processes first: a move that fails after it (its
                    // launcher killed while starting) failed of the stop, not of the runner or a bot.
                    if (stop.stop_requested()) throw GameInterrupted();
                    throw;
                }
                bank.charge(seat, move.elapsed);
            }
            if (move.ok()) {
                // What the observers see is what the board took.
                applied.clear();
                board.place(seat == 1 ? Player::one : Player::two, move.cells, &applied);
                move.cells.swap(applied);
            } else {
                move.cells.clear();
                ++result.forfeits[seat - 1];
                if (move.forfeit->kind == ForfeitKind::disconnected) lost = seat;
            }
            observer.on_move(tick, seat, move);
        }
        board.step();
        result.generations = tick + 1;
        result.cells = {board.population(Player::one), board.population(Player::two)};
        observer.on_generation(result.generations, result.cells[0], result.cells[1]);
        if (lost) {
            result.verdict = {3 - lost, EndReason::forfeit};
            return result;
        }
        if (auto verdict = judge(result.cells[0], result.cells[1], result.generations, generations)) {
            result.verdict = *verdict;
            return result;
        }
        if (clock_end && Clock::now() >= *clock_end) {
            const auto& c = result.cells;
            result.verdict = {c[0] > c[1] ? 1 : c[1] > c[0] ? 2 : 0, EndReason::clock};
            return result;
        }
    }
}

}  // namespace

GameResult play_game(Mover& seat1, Mover& seat2, const GameConfig& config, GameObserver& observer,
                     std::stop_token stop) {
    Board board(config.height, config.width);
    std::optional<Clock::time_point> clock_end;
    if (config.clock_s > 0) clock_end = Clock::now() + std::chrono::seconds(config.clock_s);
    return play_on(board, seat1, seat2, config.generations, clock_end, TimeBank(config.time_bank_s), observer, stop);
}

GameResult play_game(Board& board, Mover& seat1, Mover& seat2, int generations, GameObserver& observer,
                     std::stop_token stop) {
    return play_on(board, seat1, seat2, generations, std::nullopt, TimeBank(0), observer, stop);
}

}  // namespace gol::runner
