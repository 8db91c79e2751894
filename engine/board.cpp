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
    change_.assign(tiles, Change{});
    occupied_[0].assign(tiles, 0);
    occupied_[1].assign(tiles, 0);
    active_rows_.assign(tiles, 0);
    stamp_.assign(tiles, 0);
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

void Board::mark_changed(TileAt at, Change change) {
    Change& c = change_[at.ty * words_ + at.tx];
    if (c.rows == 0) changed_.push_back(at);
    c.rows |= change.rows;
    c.west |= change.west;
    c.east |= change.east;
}

int Board::place(Player player, std::span<const Cell> cells) {
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
        ++population_[player == Player::one ? 0 : 1];
        occupied_[0][(c.y / kTileRows) * words_ + c.x / 64] = 1;
        // The next step must recompute this tile and every neighbour: generation t is no
        // longer what the last step made it.
        const TileAt tile{c.y / kTileRows, c.x / 64};
        const std::uint8_t row = static_cast<std::uint8_t>(1u << (c.y % kTileRows));
        mark_changed(tile, {row, row, row});
        placed_.push_back(tile);
    }
    return placed;
}

void Board::step() {
    // Active: every row of every tile that a change of the last step (or a placement) can
    // reach, which is the changed rows and their neighbours.
    constexpr unsigned all_rows = (1u << kTileRows) - 1, top = 1u, bottom = 1u << (kTileRows - 1);
    auto spread = [](unsigned rows) { return (rows | (rows << 1) | (rows >> 1)) & all_rows; };
    ++step_stamp_;
    active_.clear();
    auto activate = [&](int ty, int tx, unsigned rows) {
        if (rows == 0 || ty < 0 || ty >= tiles_y_ || tx < 0 || tx >= words_) return;
        const int t = ty * words_ + tx;
        if (stamp_[t] != step_stamp_) {
            stamp_[t] = step_stamp_;
            active_rows_[t] = 0;
            active_.push_back({ty, tx});
        }
        active_rows_[t] |= static_cast<std::uint8_t>(rows);
    };
    for (const TileAt at : changed_) {
        Change& slot = change_[at.ty * words_ + at.tx];
        const Change c = slot;
        slot = Change{};
        const int ty = at.ty, tx = at.tx;
        activate(ty, tx, spread(c.rows));
        activate(ty - 1, tx, c.rows & top ? bottom : 0);
        activate(ty + 1, tx, c.rows & bottom ? top : 0);
        activate(ty, tx - 1, spread(c.west));
        activate(ty, tx + 1, spread(c.east));
        activate(ty - 1, tx - 1, c.west & top ? bottom : 0);
        activate(ty - 1, tx + 1, c.east & top ? bottom : 0);
        activate(ty + 1, tx - 1, c.west & bottom ? top : 0);
        activate(ty + 1, tx + 1, c.east & bottom ? top : 0);
    }
    changed_.clear();
    std::int64_t written_delta[2] = {0, 0};
    for (const TileAt at : active_) step_tile(at.ty, at.tx, active_rows_[at.ty * words_ + at.tx], written_delta);
    for (const TileAt at : placed_) mark_changed(at, {static_cast<std::uint8_t>(all_rows), 0, 0});
    placed_.clear();
    for (int p = 0; p < 2; ++p) {
        cur_[p].swap(nxt_[p]);
        const std::int64_t next = previous_population_[p] + written_delta[p];
        previous_population_[p] = population_[p];
        population_[p] = next;
    }
    occupied_[0].swap(occupied_[1]);
}

void Board::step_tile(int ty, int tx, unsigned rows, std::int64_t (&written_delta)[2]) {
    const int base = ty * kTileRows;
    // The rows from the first to the last that need it; a gap between is cheaper to compute
    // than to skip.
    const int y0 = base + std::countr_zero(rows);
    const int y1 = std::min(base + kTileRows - std::countl_zero(rows << (32 - kTileRows)), height_);
    if (y0 >= y1) return;
    const std::uint64_t mask = tx == words_ - 1 ? last_mask_ : ~std::uint64_t{0};
    const std::size_t first = index(y0, tx);

    // A tile with no cells of player two near it steps as plain Life, at half the cost.
    bool two_near = false;
    for (int y = y0 - 1; two_placed_ && y <= y1 && !two_near; ++y) {
        const std::uint64_t* r = &cur_[1][index(y, tx)];
        two_near = (r[-1] | r[0] | r[1]) != 0;
    }

    Change change;
    std::uint64_t written_any = 0;
    std::size_t i = first;
    const std::uint64_t* one = cur_[0].data();
    const std::uint64_t* two = cur_[1].data();
    std::uint64_t* out1 = nxt_[0].data();
    std::uint64_t* out2 = nxt_[1].data();
    Sum2 above1 = horizontal_sum(one + i - stride_), here1 = horizontal_sum(one + i);
    Sum2 above2{}, here2{};
    std::uint64_t any_above1 = 0, any_here1 = 0, any_above2 = 0, any_here2 = 0;
    if (two_near) {
        above2 = horizontal_sum(two + i - stride_);
        here2 = horizontal_sum(two + i);
        any_above1 = horizontal_any(one + i - stride_);
        any_here1 = horizontal_any(one + i);
        any_above2 = horizontal_any(two + i - stride_);
        any_here2 = horizontal_any(two + i);
    }
    for (int y = y0; y < y1; ++y, i += stride_) {
        const std::uint64_t self1 = one[i], self2 = two[i];
        const Sum2 below1 = horizontal_sum(one + i + stride_);
        const Counts c1 = count_3x3(above1, here1, below1);
        std::uint64_t next1, next2;
        if (two_near) {
            const Sum2 below2 = horizontal_sum(two + i + stride_);
            const Counts c2 = count_3x3(above2, here2, below2);
            const std::uint64_t any_below1 = horizontal_any(one + i + stride_);
            const std::uint64_t any_below2 = horizontal_any(two + i + stride_);
            const std::uint64_t near1 = any_above1 | any_here1 | any_below1;
            const std::uint64_t near2 = any_above2 | any_here2 | any_below2;
            const std::uint64_t empty = ~(self1 | self2);
            // Survival counts only friends; a birth needs three friends and no enemy at all.
            next1 = ((self1 & (c1.eq3 | c1.eq4)) | (empty & c1.eq3 & ~near2)) & mask;
            next2 = ((self2 & (c2.eq3 | c2.eq4)) | (empty & c2.eq3 & ~near1)) & mask;
            above2 = here2;
            here2 = below2;
            any_above1 = any_here1;
            any_here1 = any_below1;
            any_above2 = any_here2;
            any_here2 = any_below2;
        } else {
            next1 = (c1.eq3 | (self1 & c1.eq4)) & mask;
            next2 = 0;
        }
        above1 = here1;
        here1 = below1;

        // Against generation t-1, which nxt_ still holds: see the class comment.
        const std::uint64_t old1 = out1[i], old2 = out2[i];
        const std::uint64_t diff = (next1 ^ old1) | (next2 ^ old2);
        out1[i] = next1;
        out2[i] = next2;
        written_any |= next1 | next2;
        if (diff) {
            written_delta[0] += std::popcount(next1) - std::popcount(old1);
            written_delta[1] += std::popcount(next2) - std::popcount(old2);
            const std::uint8_t row = static_cast<std::uint8_t>(1u << (y - base));
            change.rows |= row;
            if (diff & 1) change.west |= row;
            if (diff >> 63) change.east |= row;
        }
    }
    if (change.rows) {
        mark_changed({ty, tx}, change);
        // Whether the tile holds anything at t+1, for live_cells(). A row written live
        // settles it; otherwise the rows not recomputed must be looked at too.
        std::uint64_t any = written_any;
        for (int y = base, end = std::min(base + kTileRows, height_); y < end && !any; ++y) {
            const std::size_t k = index(y, tx);
            any |= out1[k] | out2[k];
        }
        occupied_[1][ty * words_ + tx] = any != 0;
    }
}

std::int64_t Board::population(Player player) const {
    if (player == Player::none) return static_cast<std::int64_t>(height_) * width_ - population_[0] - population_[1];
    return population_[player == Player::one ? 0 : 1];
}

void Board::live_cells(std::vector<LiveCell>& out) const {
    out.clear();
    out.reserve(static_cast<std::size_t>(population_[0] + population_[1]));
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
                    const Player owner = (one[w] >> bit) & 1 ? Player::one : Player::two;
                    out.push_back({y, w * 64 + bit, owner});
                }
            }
        }
    }
}

}  // namespace gol
