#include "engine/board.hpp"

#include <bit>
#include <stdexcept>
#include <string>

namespace gol {

namespace {

// Bit i of a word is the cell at x = 64 * word + i.
struct Row3 {
    std::uint64_t w, e;  // the row shifted so each bit holds its west / east neighbour
};

inline Row3 shifted(const std::uint64_t* row) {
    return {(row[0] << 1) | (row[-1] >> 63), (row[0] >> 1) | (row[1] << 63)};
}

// Per bit, the number of live cells among west, self and east, as two bit planes.
struct Sum2 {
    std::uint64_t b0, b1;
};

inline Sum2 horizontal_sum(const std::uint64_t* row) {
    Row3 r = shifted(row);
    std::uint64_t c = row[0];
    std::uint64_t x = r.w ^ c;
    return {x ^ r.e, (r.w & c) | (x & r.e)};
}

inline std::uint64_t horizontal_any(const std::uint64_t* row) {
    Row3 r = shifted(row);
    return r.w | row[0] | r.e;
}

// From three rows' horizontal sums (the 3x3 count, self included: 0..9), the bits where the
// count is 3 and where it is 4. With self included, a live cell survives on 3 or 4 (2 or 3
// neighbours); an empty cell is born on 3.
struct Counts {
    std::uint64_t eq3, eq4;
};

inline Counts count_3x3(Sum2 a, Sum2 b, Sum2 c) {
    // a + b: 0..6 in s0, s1, s2.
    std::uint64_t s0 = a.b0 ^ b.b0, k0 = a.b0 & b.b0;
    std::uint64_t t1 = a.b1 ^ b.b1;
    std::uint64_t s1 = t1 ^ k0, s2 = (a.b1 & b.b1) | (t1 & k0);
    // + c: 0..9 in r0..r3.
    std::uint64_t r0 = s0 ^ c.b0, q0 = s0 & c.b0;
    std::uint64_t v1 = s1 ^ c.b1;
    std::uint64_t r1 = v1 ^ q0, q1 = (s1 & c.b1) | (v1 & q0);
    std::uint64_t r2 = s2 ^ q1, r3 = s2 & q1;
    std::uint64_t low_zero = ~(r2 | r3);
    return {r0 & r1 & low_zero, ~r0 & ~r1 & r2 & ~r3};
}

// What stepping some rows of a tile wrote: which rows changed (bit k for row k of the tile),
// which of those at the tile's west and east column, whether any cell was written live, and
// the population change per player.
struct Written {
    unsigned rows = 0, west = 0, east = 0;
    std::uint64_t any = 0;
    std::int64_t delta[2] = {0, 0};
};

// Steps rows [first_row, end_row) of one tile: `one` and `two` point at the first row's word
// of generation t, `out1` and `out2` at t-1, which is overwritten with t+1; rows are `stride`
// words apart. Without `kTwo`, plane two is all zero at t near these rows and at t-1 in them,
// so it is neither read nor written.
template <bool kTwo>
Written step_rows(const std::uint64_t* one, const std::uint64_t* two, std::uint64_t* out1, std::uint64_t* out2,
                  std::size_t stride, int first_row, int end_row, std::uint64_t mask) {
    Written w;
    Sum2 above1 = horizontal_sum(one - stride), here1 = horizontal_sum(one);
    Sum2 above2{}, here2{};
    std::uint64_t any_above1 = 0, any_here1 = 0, any_above2 = 0, any_here2 = 0;
    if constexpr (kTwo) {
        above2 = horizontal_sum(two - stride);
        here2 = horizontal_sum(two);
        any_above1 = horizontal_any(one - stride);
        any_here1 = horizontal_any(one);
        any_above2 = horizontal_any(two - stride);
        any_here2 = horizontal_any(two);
    }
    for (int k = first_row; k < end_row; ++k, one += stride, two += stride, out1 += stride, out2 += stride) {
        const Sum2 below1 = horizontal_sum(one + stride);
        const Counts c1 = count_3x3(above1, here1, below1);
        std::uint64_t diff;
        if constexpr (kTwo) {
            const std::uint64_t self1 = one[0], self2 = two[0];
            const Sum2 below2 = horizontal_sum(two + stride);
            const Counts c2 = count_3x3(above2, here2, below2);
            const std::uint64_t any_below1 = horizontal_any(one + stride);
            const std::uint64_t any_below2 = horizontal_any(two + stride);
            const std::uint64_t near1 = any_above1 | any_here1 | any_below1;
            const std::uint64_t near2 = any_above2 | any_here2 | any_below2;
            const std::uint64_t empty = ~(self1 | self2);
            // Survival counts only friends; a birth needs three friends and no enemy at all.
            const std::uint64_t next1 = ((self1 & (c1.eq3 | c1.eq4)) | (empty & c1.eq3 & ~near2)) & mask;
            const std::uint64_t next2 = ((self2 & (c2.eq3 | c2.eq4)) | (empty & c2.eq3 & ~near1)) & mask;
            above2 = here2;
            here2 = below2;
            any_above1 = any_here1;
            any_here1 = any_below1;
            any_above2 = any_here2;
            any_here2 = any_below2;
            // Against generation t-1, which the output still holds: see the class comment.
            const std::uint64_t old1 = *out1, old2 = *out2;
            diff = (next1 ^ old1) | (next2 ^ old2);
            *out1 = next1;
            *out2 = next2;
            w.any |= next1 | next2;
            w.delta[0] += std::popcount(next1) - std::popcount(old1);
            w.delta[1] += std::popcount(next2) - std::popcount(old2);
        } else {
            const std::uint64_t next1 = (c1.eq3 | (one[0] & c1.eq4)) & mask;
            const std::uint64_t old1 = *out1;
            diff = next1 ^ old1;
            *out1 = next1;
            w.any |= next1;
            w.delta[0] += std::popcount(next1) - std::popcount(old1);
        }
        above1 = here1;
        here1 = below1;
        // Without branches: whether a row changed is as good as random.
        w.rows |= static_cast<unsigned>(diff != 0) << k;
        w.west |= static_cast<unsigned>(diff & 1) << k;
        w.east |= static_cast<unsigned>(diff >> 63) << k;
    }
    return w;
}

}  // namespace

Board::Board(int height, int width) : height_(height), width_(width) {
    if (height < 1 || height > max_side || width < 1 || width > max_side)
        throw std::invalid_argument("board size " + std::to_string(width) + "x" + std::to_string(height) +
                                    " is out of range: width and height must be 1.." + std::to_string(max_side));
    words_ = (width + 63) / 64;
    stride_ = static_cast<std::size_t>(words_) + 2;
    tiles_y_ = (height + kTileRows - 1) / kTileRows;
    last_mask_ = width % 64 == 0 ? ~std::uint64_t{0} : (std::uint64_t{1} << (width % 64)) - 1;
    const std::size_t size = (static_cast<std::size_t>(height) + 2) * stride_;
    for (int p = 0; p < 2; ++p) {
        cur_[p].assign(size, 0);
        nxt_[p].assign(size, 0);
    }
    const std::size_t tiles = static_cast<std::size_t>(tiles_y_) * words_;
    occupied_[0].assign(tiles, 0);
    occupied_[1].assign(tiles, 0);
    // One slot more than there are tiles: a list's next slot is written before it is counted.
    pending_.resize(tiles + 1);
    active_.resize(tiles + 1);
    pending_rows_.assign((static_cast<std::size_t>(tiles_y_) + 2) * stride_, RowMask(~0u));
    for (int ty = 0; ty < tiles_y_; ++ty)
        for (int tx = 0; tx < words_; ++tx) pending_rows_[tile_index({ty, tx})] = 0;
    active_rows_ = pending_rows_;
}

int Board::height() const { return height_; }
int Board::width() const { return width_; }

Player Board::at(int y, int x) const {
    if (y < 0 || y >= height_ || x < 0 || x >= width_) return Player::none;
    const std::size_t i = index(y, x / 64);
    const std::uint64_t bit = std::uint64_t{1} << (x % 64);
    if (cur_[0][i] & bit) return Player::one;
    if (cur_[1][i] & bit) return Player::two;
    return Player::none;
}

void Board::activate(TileAt at, Change change) {
    constexpr unsigned all_rows = (1u << kTileRows) - 1, bottom_shift = kTileRows - 1;
    auto spread = [](unsigned rows) { return (rows | (rows << 1) | (rows >> 1)) & all_rows; };
    // A change in a tile's top row reaches the bottom row of the tile above, and so on.
    auto up = [](unsigned rows) { return (rows & 1u) << bottom_shift; };
    auto down = [](unsigned rows) { return rows >> bottom_shift; };
    const std::size_t t = tile_index(at), s = stride_;
    RowMask* rows = pending_rows_.data();
    TileAt* list = pending_.data();
    auto add = [&](std::size_t i, int dy, int dx, unsigned more) {
        const RowMask before = rows[i];
        rows[i] = static_cast<RowMask>(before | more);
        list[pending_count_] = {at.ty + dy, at.tx + dx};
        pending_count_ += before == 0 && more != 0;
    };
    add(t, 0, 0, spread(change.rows));
    // Most changes stay clear of the tile's edges.
    if ((change.rows & (1u | 1u << bottom_shift)) != 0) {
        add(t - s, -1, 0, up(change.rows));
        add(t + s, 1, 0, down(change.rows));
    }
    if ((change.west | change.east) == 0) return;
    add(t - 1, 0, -1, spread(change.west));
    add(t + 1, 0, 1, spread(change.east));
    add(t - s - 1, -1, -1, up(change.west));
    add(t - s + 1, -1, 1, up(change.east));
    add(t + s - 1, 1, -1, down(change.west));
    add(t + s + 1, 1, 1, down(change.east));
}

int Board::place(Player player, std::span<const Cell> cells, std::vector<Cell>* applied) {
    if (player == Player::none) return 0;
    std::vector<std::uint64_t>& plane = cur_[player == Player::one ? 0 : 1];
    int placed = 0;
    for (const Cell& c : cells) {
        if (c.y < 0 || c.y >= height_ || c.x < 0 || c.x >= width_) continue;
        const std::size_t i = index(c.y, c.x / 64);
        const std::uint64_t bit = std::uint64_t{1} << (c.x % 64);
        if ((cur_[0][i] | cur_[1][i]) & bit) continue;
        plane[i] |= bit;
        if (player == Player::two) two_placed_ = true;
        ++placed;
        if (applied) applied->push_back(c);
        ++population_[player == Player::one ? 0 : 1];
        occupied_[0][(c.y / kTileRows) * words_ + c.x / 64] = 1;
        // The next step must recompute this row's neighbourhood: generation t is no longer
        // what the last step made it.
        const TileAt tile{c.y / kTileRows, c.x / 64};
        const unsigned row = 1u << (c.y % kTileRows);
        activate(tile, {row, row, row});
        placed_.push_back(tile);
    }
    return placed;
}

void Board::step() {
    active_.swap(pending_);
    active_rows_.swap(pending_rows_);
    const std::size_t count = pending_count_;
    pending_count_ = 0;
    std::int64_t written_delta[2] = {0, 0};
    for (std::size_t k = 0; k < count; ++k) {
        const TileAt at = active_[k];
        RowMask& rows = active_rows_[tile_index(at)];
        step_tile(at, rows, written_delta);
        rows = 0;
    }
    constexpr unsigned all_rows = (1u << kTileRows) - 1;
    for (const TileAt at : placed_) activate(at, {all_rows, 0, 0});
    placed_.clear();
    for (int p = 0; p < 2; ++p) {
        cur_[p].swap(nxt_[p]);
        const std::int64_t next = previous_population_[p] + written_delta[p];
        previous_population_[p] = population_[p];
        population_[p] = next;
    }
    occupied_[0].swap(occupied_[1]);
}

void Board::step_tile(TileAt at, unsigned rows, std::int64_t (&written_delta)[2]) {
    const int base = at.ty * kTileRows;
    // The rows from the first to the last that need it; a gap between is cheaper to compute
    // than to skip.
    const int first_row = std::countr_zero(rows);
    const int end_row = std::min(kTileRows - std::countl_zero(rows << (32 - kTileRows)), height_ - base);
    const std::uint64_t mask = at.tx == words_ - 1 ? last_mask_ : ~std::uint64_t{0};
    const std::size_t first = index(base + first_row, at.tx);

    // A tile with no cells of player two near it, nor in the rows it overwrites, steps as
    // plain Life, at half the cost.
    bool two = false;
    if (two_placed_) {
        const std::uint64_t* r = &cur_[1][first - stride_];
        const std::uint64_t* old = &nxt_[1][first];
        for (int k = first_row - 1; k <= end_row && !two; ++k, r += stride_) two = (r[-1] | r[0] | r[1]) != 0;
        for (int k = first_row; k < end_row && !two; ++k, old += stride_) two = *old != 0;
    }
    const std::size_t rel = first - static_cast<std::size_t>(first_row) * stride_;  // row 0 of the tile
    const Written w =
        two ? step_rows<true>(&cur_[0][first], &cur_[1][first], &nxt_[0][first], &nxt_[1][first], stride_, first_row,
                              end_row, mask)
            : step_rows<false>(&cur_[0][first], &cur_[1][first], &nxt_[0][first], &nxt_[1][first], stride_, first_row,
                               end_row, mask);
    written_delta[0] += w.delta[0];
    written_delta[1] += w.delta[1];
    if (w.rows == 0) return;
    activate(at, {w.rows, w.west, w.east});
    // Whether the tile holds anything at t+1, for live_cells(). A row written live settles
    // it; otherwise the rows not recomputed must be looked at too.
    std::uint64_t any = w.any;
    for (int k = 0, end = std::min(kTileRows, height_ - base); k < end && !any; ++k)
        any |= nxt_[0][rel + k * stride_] | nxt_[1][rel + k * stride_];
    occupied_[1][at.ty * words_ + at.tx] = any != 0;
}

std::int64_t Board::population(Player player) const {
    if (player == Player::none) return static_cast<std::int64_t>(height_) * width_ - population_[0] - population_[1];
    return population_[player == Player::one ? 0 : 1];
}

void Board::live_cells(std::vector<LiveCell>& out) const {
    out.clear();
    out.reserve(static_cast<std::size_t>(population_[0] + population_[1]));
    for_each_live_cell([&out](int y, int x, Player owner) { out.push_back({y, x, owner}); });
}

}  // namespace gol
