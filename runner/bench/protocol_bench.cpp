// Per-tick costs the runner adds besides the bots: encoding a board with 10000 live cells as the
// 2016 JSON, and one generation of that board. Prints microseconds per operation.
#include "engine/board.hpp"
#include "runner/game/protocol.hpp"

#include <chrono>
#include <cstdio>
#include <random>

int main() {
    using namespace gol;
    using Clock = std::chrono::steady_clock;
    Board board(1000, 1000);
    std::mt19937 rng(1);
    std::vector<Cell> one;
    while (board.population(Player::one) + board.population(Player::two) < 10000) {
        one.assign(1, {static_cast<int>(rng() % 1000), static_cast<int>(rng() % 1000)});
        board.place(rng() % 2 ? Player::one : Player::two, one);
    }

    std::string json;
    const int encodes = 2000;
    auto t0 = Clock::now();
    std::size_t bytes = 0;
    for (int i = 0; i < encodes; ++i) {
        runner::encode_board(board, 1 + i % 2, i, json);
        bytes += json.size();
    }
    double encode_us = std::chrono::duration<double, std::micro>(Clock::now() - t0).count() / encodes;

    const int steps = 200;
    double step_us = 0;
    for (int i = 0; i < steps; ++i) {
        Board copy = board;
        auto s0 = Clock::now();
        copy.step();
        step_us += std::chrono::duration<double, std::micro>(Clock::now() - s0).count();
    }
    step_us /= steps;
    std::printf("encode 10000 live cells (%zu bytes of JSON): %.1f us\n", bytes / encodes, encode_us);
    std::printf("one generation of that board: %.1f us\n", step_us);
    std::printf("{\"encode_us\":%.2f,\"step_us\":%.2f,\"json_bytes\":%zu}\n", encode_us, step_us, bytes / encodes);
}
