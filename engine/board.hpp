// Two-player Game of Life on a bounded board: the contest's rules, no I/O.
#pragma once

#include <algorithm>
#include <bit>
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
    // live (either player's) are skipped, duplicates count once. Returns how many were placed;
    // with `applied`, also appends those cells to it, in request order.
    int place(Player player, std::span<const Cell> cells, std::vector<Cell>* applied = nullptr);

    // Advances one generation (rules in docs/rules.md).
    void step();

    std::int64_t population(Player player) const;

    // Clears `out` and fills it with every live cell in (y, x) order; reuses its capacity.
    void live_cells(std::vector<LiveCell>& out) const;

    // Calls visit(y, x, owner) for every live cell in (y, x) order: live_cells() without the
    // vector, for writers that stream a busy board straight into their output.
    template <class Visit>
    void for_each_live_cell(Visit&& visit) const;

private:
    // Cells are bits, 64 to a word, one plane per player. Each row has a zero word of padding
    // on both sides and the board a zero row above and below, so neighbours never need a
    // bounds check. The board is cut into tiles one word wide and kTileRows rows high.
    //
    // cur_ holds generation t and nxt_ generation t-1. A step writes t+1 into nxt_ and swaps.
    // A tile whose neighbourhood is the same at t as at t-2 will be at t+1 what it was at t-1,
    // which nxt_ already holds: such a tile is skipped. That covers still lifes and every
    // period-2 oscillator (the blinkers that fill a settled soup), so a step costs in
    // proportion to what really moves.
    static constexpr int kTileRows = 8;
    using RowMask = std::uint8_t;  // one bit per row of a tile
    static_assert(kTileRows <= 8, "RowMask keeps a tile's rows in 8 bits");

    std::size_t index(int y, int word) const {  // y and word in board terms
        return static_cast<std::size_t>(y + 1) * stride_ + static_cast<std::size_t>(word + 1);
    }
    struct TileAt {
        int ty, tx;  // kept whole: dividing a tile index back into them costs a division
    };
    // Per-tile arrays have a ring of border tiles, so a tile's neighbours never need a bounds
    // check; a border tile's rows read as all active, so it is never listed.
    std::size_t tile_index(TileAt at) const {
        return static_cast<std::size_t>(at.ty + 1) * stride_ + static_cast<std::size_t>(at.tx + 1);
    }
    // Which rows of a tile changed (t+1 against t-1), and in which of those the change
    // touches the tile's west or east column: that is all a neighbour needs to know.
    struct Change {
        unsigned rows, west, east;
    };
    // Lists, for the next step, every row of the tile and its neighbours that the change can reach.
    void activate(TileAt at, Change change);
    void step_tile(TileAt at, unsigned rows, std::int64_t (&written_delta)[2]);

    int height_;
    int width_;
    int words_;           // words per row
    std::size_t stride_;  // words per padded row, and tiles per padded row of tiles
    int tiles_y_;
    std::uint64_t last_mask_;  // bits of the last word that lie on the board
    std::vector<std::uint64_t> cur_[2];
    std::vector<std::uint64_t> nxt_[2];
    // Populations of generations t and t-1. Every word of the t+1 board is either written by
    // this step or still holds its t-1 value, so population(t+1) is population(t-1) plus the
    // difference over the words written: exact, and free for skipped oscillators.
    std::int64_t population_[2] = {0, 0};
    std::int64_t previous_population_[2] = {0, 0};
    // Per buffer and tile: whether it holds any live cell, so live_cells() visits only those.
    std::vector<std::uint8_t> occupied_[2];  // indexed like cur_/nxt_: [0] goes with cur_
    // Player two can only be born next to player two: until its first cell is placed the
    // board is plain Life, and tiles need not look for it.
    bool two_placed_ = false;

    // The tiles the next step recomputes and, per (bordered) tile, which of its rows. A tile is
    // listed when its mask first turns non-zero; the lists have room for every tile at once,
    // so adding one needs no branch.
    std::vector<TileAt> pending_;
    std::size_t pending_count_ = 0;
    std::vector<RowMask> pending_rows_;
    // The step under way works from these while it fills the pending ones.
    std::vector<TileAt> active_;
    std::vector<RowMask> active_rows_;
    // Tiles cells were placed in since the last step. Such a tile must be recomputed in the
    // next two steps: its generation t is not what its neighbourhood at t-1 made it, so the
    // comparison with t-2 says nothing about it.
    std::vector<TileAt> placed_;
};

template <class Visit>
void Board::for_each_live_cell(Visit&& visit) const {
    // Row by row for (y, x) order, but only through tiles that hold something.
    for (int ty = 0; ty < tiles_y_; ++ty) {
        const std::uint8_t* occupied = &occupied_[0][static_cast<std::size_t>(ty) * words_];
        bool band = false;
        for (int tx = 0; tx < words_ && !band; ++tx) band = occupied[tx];
        if (!band) continue;
        for (int y = ty * kTileRows, end = std::min(y + kTileRows, height_); y < end; ++y) {
            const std::uint64_t* one = &cur_[0][index(y, 0)];
            const std::uint64_t* two = &cur_[1][index(y, 0)];
            for (int w = 0; w < words_; ++w) {
                if (!occupied[w]) continue;
                std::uint64_t any = one[w] | two[w];
                while (any) {
                    const int bit = std::countr_zero(any);
                    any &= any - 1;
                    visit(y, w * 64 + bit, (one[w] >> bit) & 1 ? Player::one : Player::two);
                }
            }
        }
    }
}

}  // namespace gol
