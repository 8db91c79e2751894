// Two-player Game of Life on a bounded board: the contest's rules, no I/O.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace gol {

enum class Player : std::uint8_t { none = 0, one = 1, two = 2 };

struct Cell {
    int y;
    int x;
    friend bool operator==(const Cell&, const Cell&) = default;
};

struct LiveCell {
    int y;
    int x;
    Player owner;
    friend bool operator==(const LiveCell&, const LiveCell&) = default;
};

class Board {
public:
    static constexpr int max_side = 4096;

    // Throws std::invalid_argument unless 1 <= height, width <= max_side.
    Board(int height, int width);

    int height() const;
    int width() const;

    // Off-board coordinates read as empty.
    Player at(int y, int x) const;

    // Brings cells alive for `player` (one or two). Off-board cells vanish, cells already
    // live (either player's) are skipped, duplicates count once. Returns how many were placed.
    int place(Player player, std::span<const Cell> cells);

    // Advances one generation (rules in docs/rules.md).
    void step();

    std::int64_t population(Player player) const;

    // Clears `out` and fills it with every live cell in (y, x) order; reuses its capacity.
    void live_cells(std::vector<LiveCell>& out) const;

private:
    // Bit planes and active-region bookkeeping: the engine's own, free to change.
    int height_;
    int width_;
    std::vector<Player> cells_;
};

}  // namespace gol
