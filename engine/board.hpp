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
    // Cells are bits, 64 to a word, one plane per player. Each row has a zero word of padding
    // on both sides and the board a zero row above and below, so neighbours never need a
    // bounds check. The board is cut into tiles one word wide and kTileRows rows high; a step
    // recomputes only tiles whose neighbourhood changed in the previous step.
    static constexpr int kTileRows = 8;

    std::size_t index(int y, int word) const {  // y and word in board terms
        return static_cast<std::size_t>(y + 1) * stride_ + static_cast<std::size_t>(word + 1);
    }
    void step_tile(int tile);
    void mark_changed(int tile, unsigned flags);

    int height_;
    int width_;
    int words_;        // words per row
    std::size_t stride_;  // words per padded row
    int tiles_y_;
    std::uint64_t last_mask_;  // bits of the last word that lie on the board
    // cur_ holds the board, nxt_ the scratch for the next generation. For every tile that is
    // not active both hold the same bits, so a step only writes active tiles.
    std::vector<std::uint64_t> cur_[2];
    std::vector<std::uint64_t> nxt_[2];
    std::int64_t population_[2] = {0, 0};

    std::vector<std::uint16_t> changed_flags_;  // per tile: which neighbours its change reaches
    std::vector<int> changed_;                  // tiles with flags set
    std::vector<int> active_;
    std::vector<std::uint32_t> stamp_;  // dedupes active_; compared with step_stamp_
    std::uint32_t step_stamp_ = 0;
};

}  // namespace gol
