#include "runner/game/match.hpp"

#include <algorithm>

namespace gol::runner {

std::string_view name(EndReason reason) {
    return reason == EndReason::extinction ? "extinction" : "generations";
}

std::optional<Verdict> judge(std::int64_t cells1, std::int64_t cells2, int generation, int last_generation) {
    if ((cells1 == 0) != (cells2 == 0)) return Verdict{cells1 > 0 ? 1 : 2, EndReason::extinction};
    if (generation < last_generation) return std::nullopt;
    return Verdict{cells1 > cells2 ? 1 : cells2 > cells1 ? 2 : 0, EndReason::generations};
}

std::vector<Cell> placeable_cells(const Board& board, const std::vector<Cell>& requested) {
    std::vector<Cell> applied;
    applied.reserve(requested.size());
    for (const Cell& c : requested) {
        if (c.y < 0 || c.y >= board.height() || c.x < 0 || c.x >= board.width()) continue;
        if (board.at(c.y, c.x) != Player::none) continue;
        if (std::find(applied.begin(), applied.end(), c) != applied.end()) continue;
        applied.push_back(c);
    }
    return applied;
}

GameResult play_game(Mover& seat1, Mover& seat2, const GameConfig& config, GameObserver& observer,
                     std::stop_token stop) {
    Board board(config.height, config.width);
    std::array<Mover*, 2> movers = {&seat1, &seat2};
    std::string json;
    GameResult result;

    for (int tick = 0;; ++tick) {
        for (int seat = 1; seat <= 2; ++seat) {
            if (stop.stop_requested()) throw GameInterrupted();
            encode_board(board, seat, tick, json);
            MoveResult m = movers[seat - 1]->move(json);
            SeatMove move;
            move.elapsed = m.elapsed;
            move.err = &m.err;
            if (m.ok) {
                move.applied = placeable_cells(board, m.cells);
                board.place(seat == 1 ? Player::one : Player::two, move.applied);
            } else {
                move.forfeit = std::move(m.forfeit);
                ++result.forfeits[seat - 1];
            }
            observer.on_move(tick, seat, move);
        }
        board.step();
        result.generations = tick + 1;
        result.cells = {board.population(Player::one), board.population(Player::two)};
        observer.on_generation(result.generations, result.cells[0], result.cells[1]);
        if (auto verdict = judge(result.cells[0], result.cells[1], result.generations, config.generations)) {
            result.verdict = *verdict;
            return result;
        }
    }
}

}  // namespace gol::runner
