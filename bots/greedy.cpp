// greedy: simulates ahead and picks the placements that best raise (own - enemy).
//
// Candidates are L-trominoes and blocks on a block lattice (rows every 3, columns every 4, a
// spacing at which any set of blocks is a still life), single cells and blocks next to the
// enemy's pending births, and, once the lattice runs short, blocks in the 2x2 holes of the
// enemy's still lifes. Each candidate is scored by simulating its neighbourhood with and without it:
// the score is the gain in (own cells - enemy cells) after the next generation, taken as the
// smallest gain over the next three generations, and a candidate whose cells have not settled by
// then (blinkers, growth that would break our own still lifes) scores nothing. Candidates are taken greedily by score per
// placed cell (an L-tromino becomes a 4-cell block: 4/3 per cell), re-scored when an earlier
// choice of the same tick changes their neighbourhood, until the 30 cells are spent. Ties go to
// the lattice slots nearest the enemy (contested ground first), else nearest our own cells.
//
// Input: the 2016 JSON board as the last command-line argument, or on stdin when there is none.
// Output: a JSON list of at most 30 [y,x] pairs. Standard library only; deterministic.

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <queue>
#include <string>
#include <vector>

namespace {

constexpr int kBudget = 30;
constexpr int kGens = 3;      // generations simulated per candidate
constexpr int kPad = 2 * kGens + 4;
constexpr int kMaxSide = 4096;
constexpr int kWantSlots = 48;  // lattice slots to score per move
constexpr int kMaxBlockers = 200;
constexpr int kMaxWallBirths = 30;
constexpr int kMaxHoles = 300;

struct Cell {
    int y, x;
};

struct Input {
    long long height = 0, width = 0, bot_id = 1, tick = 0;
    std::vector<Cell> cells;
    std::vector<int> owner;
};

// Reads the integer after "name": in text; false when absent.
bool find_int(const std::string& text, const char* name, long long& out) {
    std::string key = std::string("\"") + name + "\":";
    std::size_t p = text.find(key);
    if (p == std::string::npos) return false;
    p += key.size();
    while (p < text.size() && (text[p] == ' ')) ++p;
    bool neg = false;
    if (p < text.size() && text[p] == '-') {
        neg = true;
        ++p;
    }
    long long v = 0;
    bool any = false;
    while (p < text.size() && text[p] >= '0' && text[p] <= '9') {
        if (v < 1000000000000LL) v = v * 10 + (text[p] - '0');
        ++p;
        any = true;
    }
    if (!any) return false;
    out = neg ? -v : v;
    return true;
}

// Parses {"(y,x)":id,...} after "board":. Tolerates spaces; ignores anything malformed.
void parse_board(const std::string& text, Input& in) {
    std::size_t p = text.find("\"board\"");
    if (p == std::string::npos) return;
    p = text.find('{', p);
    if (p == std::string::npos) return;
    const std::size_t n = text.size();
    auto read_num = [&](std::size_t& q, long long& v) {
        while (q < n && text[q] == ' ') ++q;
        bool any = false;
        v = 0;
        while (q < n && text[q] >= '0' && text[q] <= '9') {
            if (v < 1000000000LL) v = v * 10 + (text[q] - '0');
            ++q;
            any = true;
        }
        return any;
    };
    ++p;
    while (p < n) {
        std::size_t open = text.find_first_of("(}", p);
        if (open == std::string::npos || text[open] == '}') break;
        std::size_t q = open + 1;
        long long y = 0, x = 0, id = 0;
        if (!read_num(q, y)) { p = q; continue; }
        while (q < n && (text[q] == ',' || text[q] == ' ')) ++q;
        if (!read_num(q, x)) { p = q; continue; }
        while (q < n && (text[q] == ')' || text[q] == '"' || text[q] == ':' || text[q] == ' ')) ++q;
        if (!read_num(q, id)) { p = q; continue; }
        in.cells.push_back({static_cast<int>(y), static_cast<int>(x)});
        in.owner.push_back(static_cast<int>(id));
        p = q;
    }
}

class Game {
public:
    Game(int h, int w) : H(h), W(w), S(w + 2 * kPad), grid(static_cast<std::size_t>(h + 2 * kPad) * (w + 2 * kPad), 0) {}

    int H, W, S;
    std::vector<std::uint8_t> grid;  // 0 empty, 1 own, 2 enemy; padded so reads never go out of range

    std::size_t idx(int y, int x) const { return static_cast<std::size_t>(y + kPad) * S + (x + kPad); }
    std::uint8_t at(int y, int x) const { return grid[idx(y, x)]; }
    bool on_board(int y, int x) const { return y >= 0 && y < H && x >= 0 && x < W; }

    // Simulates the box [y0,y1]x[x0,x1] grown by 2*kGens with `extra` placed as own cells, and
    // returns (own - enemy) within the box grown by kGens after each generation.
    // The last two generations' own cells in that box go to last[0] and last[1] (flattened).
    void simulate(int y0, int x0, int y1, int x1, const Cell* extra, int n_extra, int out[kGens],
                  std::vector<std::uint8_t> last[2]) const {
        const int m = 2 * kGens;
        const int ry0 = y0 - m - 1, rx0 = x0 - m - 1;
        const int rh = (y1 - y0 + 1) + 2 * m + 2, rw = (x1 - x0 + 1) + 2 * m + 2;
        std::uint8_t a[64 * 64], b[64 * 64];
        for (int i = 0; i < rh; ++i)
            for (int j = 0; j < rw; ++j) a[i * rw + j] = at(ry0 + i, rx0 + j);
        for (int k = 0; k < n_extra; ++k) a[(extra[k].y - ry0) * rw + (extra[k].x - rx0)] = 1;
        std::memcpy(b, a, static_cast<std::size_t>(rh * rw));
        for (int g = 0; g < kGens; ++g) {
            // The outer frame stays frozen at the current board.
            for (int i = 1; i < rh - 1; ++i) {
                for (int j = 1; j < rw - 1; ++j) {
                    const int y = ry0 + i, x = rx0 + j;
                    if (!on_board(y, x)) continue;
                    int c1 = 0, c2 = 0;
                    for (int di = -1; di <= 1; ++di)
                        for (int dj = -1; dj <= 1; ++dj) {
                            if (!di && !dj) continue;
                            const std::uint8_t v = a[(i + di) * rw + (j + dj)];
                            c1 += (v == 1);
                            c2 += (v == 2);
                        }
                    const std::uint8_t v = a[i * rw + j];
                    std::uint8_t nv = 0;
                    if (v == 1) nv = (c1 == 2 || c1 == 3) ? 1 : 0;
                    else if (v == 2) nv = (c2 == 2 || c2 == 3) ? 2 : 0;
                    else if (c1 == 3 && c2 == 0) nv = 1;
                    else if (c2 == 3 && c1 == 0) nv = 2;
                    b[i * rw + j] = nv;
                }
            }
            std::memcpy(a, b, static_cast<std::size_t>(rh * rw));
            int score = 0;
            const bool keep = g >= kGens - 2;
            std::vector<std::uint8_t>& mine = last[g - (kGens - 2) < 0 ? 0 : g - (kGens - 2)];
            if (keep) mine.clear();
            for (int i = m + 1 - kGens; i < rh - (m + 1 - kGens); ++i)
                for (int j = m + 1 - kGens; j < rw - (m + 1 - kGens); ++j) {
                    const std::uint8_t v = a[i * rw + j];
                    score += (v == 1) - (v == 2);
                    if (keep) mine.push_back(v == 1);
                }
            out[g] = score;
        }
    }

    // Gain of placing `cells` (all empty, on board): the smallest gain over kGens generations.
    int gain(const Cell* cells, int n) {
        int y0 = cells[0].y, y1 = y0, x0 = cells[0].x, x1 = x0;
        for (int k = 1; k < n; ++k) {
            y0 = std::min(y0, cells[k].y);
            y1 = std::max(y1, cells[k].y);
            x0 = std::min(x0, cells[k].x);
            x1 = std::max(x1, cells[k].x);
        }
        // Fast path: with nothing else alive within reach and the board's edge out of reach,
        // the gain depends only on the shape, which is then simulated once and remembered.
        const int m = 2 * kGens + 1;
        bool alone = y0 - m >= 0 && x0 - m >= 0 && y1 + m < H && x1 + m < W;
        for (int y = y0 - m; alone && y <= y1 + m; ++y)
            for (int x = x0 - m; x <= x1 + m; ++x)
                if (at(y, x) != 0) {
                    alone = false;
                    break;
                }
        std::uint32_t key = 0;
        if (alone) {
            key = static_cast<std::uint32_t>(n);
            for (int k = 0; k < n; ++k)
                key |= 1u << (4 + (cells[k].y - y0) * 4 + (cells[k].x - x0));  // shapes fit in 4x4
            for (const auto& e : isolated_)
                if (e.first == key) return e.second;
        }
        const int g = gain_simulated(cells, n, y0, x0, y1, x1);
        if (alone && y1 - y0 < 4 && x1 - x0 < 4) isolated_.push_back({key, g});
        return g;
    }

private:
    std::vector<std::pair<std::uint32_t, int>> isolated_;

    int gain_simulated(const Cell* cells, int n, int y0, int x0, int y1, int x1) const {
        int with[kGens], without[kGens];
        std::vector<std::uint8_t> with_last[2], without_last[2];
        simulate(y0, x0, y1, x1, cells, n, with, with_last);
        simulate(y0, x0, y1, x1, cells, 0, without, without_last);
        // Our cells must have settled: nothing of ours may still change between the last two
        // generations where it would not have changed anyway. Growing or churning shapes look
        // good for a few generations and then eat our own still lifes.
        for (std::size_t k = 0; k < with_last[0].size(); ++k)
            if (with_last[0][k] != with_last[1][k] && without_last[0][k] == without_last[1][k]) return 0;
        int best = 1 << 30;
        for (int g = 0; g < kGens; ++g) best = std::min(best, with[g] - without[g]);
        return best;
    }
};

struct Candidate {
    Cell cells[4];
    int n = 0;
    int score = 0;
    int pref = 0;      // smaller is better: distance to contested ground
    int version = 0;   // number of accepted placements when scored
    int open = 0;      // an L-tromino on a lattice slot: -1 its missing corner is on top, +1 below
    int sy = 0, sx = 0;  // that slot's top-left cell
    int y0 = 0, x0 = 0, y1 = 0, x1 = 0;

    void bound() {
        y0 = y1 = cells[0].y;
        x0 = x1 = cells[0].x;
        for (int k = 1; k < n; ++k) {
            y0 = std::min(y0, cells[k].y);
            y1 = std::max(y1, cells[k].y);
            x0 = std::min(x0, cells[k].x);
            x1 = std::max(x1, cells[k].x);
        }
    }
};

// Higher score per cell first (compared exactly by cross-multiplying), then nearer ground.
struct Worse {
    bool operator()(const Candidate& a, const Candidate& b) const {
        const long long l = static_cast<long long>(a.score) * b.n, r = static_cast<long long>(b.score) * a.n;
        if (l != r) return l < r;
        if (a.pref != b.pref) return a.pref > b.pref;
        if (a.n != b.n) return a.n < b.n;
        if (a.cells[0].y != b.cells[0].y) return a.cells[0].y > b.cells[0].y;
        return a.cells[0].x > b.cells[0].x;
    }
};

}  // namespace

int main(int argc, char** argv) {
    std::string text;
    if (argc > 1) {
        text = argv[argc - 1];
    } else {
        char buf[1 << 16];
        std::size_t got;
        while ((got = std::fread(buf, 1, sizeof buf, stdin)) > 0) text.append(buf, got);
    }
    Input in;
    find_int(text, "y_size", in.height);
    find_int(text, "x_size", in.width);
    find_int(text, "bot_id", in.bot_id);
    find_int(text, "tick_id", in.tick);
    if (in.height < 1 || in.width < 1 || in.height > kMaxSide || in.width > kMaxSide) {
        std::puts("[]");
        return 0;
    }
    parse_board(text, in);
    const int H = static_cast<int>(in.height), W = static_cast<int>(in.width);
    Game game(H, W);
    long long own_sy = 0, own_sx = 0, own_n = 0;
    std::vector<Cell> enemy_cells;
    for (std::size_t i = 0; i < in.cells.size(); ++i) {
        const Cell c = in.cells[i];
        if (!game.on_board(c.y, c.x)) continue;
        const bool mine = in.owner[i] == in.bot_id;
        game.grid[game.idx(c.y, c.x)] = mine ? 1 : 2;
        if (mine) {
            own_sy += c.y;
            own_sx += c.x;
            ++own_n;
        } else {
            enemy_cells.push_back(c);
        }
    }

    // Distance map over lattice cells (3 rows by 4 columns, one per slot): BFS from the enemy's
    // cells (contested ground first); with no enemy, from our own centre of mass; on an empty
    // board, from the centre.
    const std::size_t area = static_cast<std::size_t>(H) * W;
    const int SH = (H + 2) / 3, SW = (W + 3) / 4;
    std::vector<int> dist(static_cast<std::size_t>(SH) * SW, -1);
    std::vector<int> queue;
    queue.reserve(dist.size());
    auto seed = [&](int y, int x) {
        const std::size_t i = static_cast<std::size_t>(y / 3) * SW + x / 4;
        if (dist[i] < 0) {
            dist[i] = 0;
            queue.push_back(static_cast<int>(i));
        }
    };
    if (!enemy_cells.empty()) {
        for (const Cell& c : enemy_cells) seed(c.y, c.x);
    } else if (own_n > 0) {
        seed(static_cast<int>(own_sy / own_n), static_cast<int>(own_sx / own_n));
    } else {
        seed(H / 2, W / 2);
    }
    for (std::size_t head = 0; head < queue.size(); ++head) {
        const int i = queue[head];
        const int sy = i / SW, sx = i % SW;
        for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx) {
                const int ny = sy + dy, nx = sx + dx;
                if (ny < 0 || ny >= SH || nx < 0 || nx >= SW) continue;
                const std::size_t j = static_cast<std::size_t>(ny) * SW + nx;
                if (dist[j] < 0) {
                    dist[j] = dist[static_cast<std::size_t>(i)] + 1;
                    queue.push_back(static_cast<int>(j));
                }
            }
    }
    auto dist_at = [&](int y, int x) { return dist[static_cast<std::size_t>(y / 3) * SW + x / 4]; };

    std::priority_queue<Candidate, std::vector<Candidate>, Worse> heap;

    // An L-tromino grows its fourth cell only if no enemy cell touches that cell, and the enemy
    // moves after us half the time: its birth may come late or never. Until it comes, the gap
    // row on its open side sees one cell of the L where a block would give two, so an own block
    // just across that gap would make a gap cell with three neighbours: a stray birth that
    // wrecks both. So an L goes only where the slot across its open side is empty of ours, and
    // nothing of ours goes into the "shadow" (gap row and next row) of a pending L.
    struct Shadow {
        int y0, y1, x0, x1;
    };
    std::vector<Shadow> shadows;
    auto add_shadow = [&](int sy, int sx, int open) {
        const int y0 = open < 0 ? sy - 2 : sy + 2;
        shadows.push_back({y0, y0 + 1, sx - 1, sx + 2});
    };
    auto own_in = [&](int y, int x) {  // own cells in the 2x2 at (y, x)
        int n = 0;
        for (int dy = 0; dy < 2; ++dy)
            for (int dx = 0; dx < 2; ++dx) n += game.on_board(y + dy, x + dx) && game.at(y + dy, x + dx) == 1;
        return n;
    };
    // Pending L-trominoes of ours already on the board: three own cells of a slot, the fourth empty.
    for (int y = 0; y + 1 < H; y += 3)
        for (int x = 0; x + 1 < W; x += 4) {
            if (own_in(y, x) != 3) continue;
            for (int k = 0; k < 4; ++k) {
                const int cy = y + k / 2, cx = x + k % 2;
                if (game.at(cy, cx) == 0) add_shadow(y, x, k < 2 ? -1 : 1);
            }
        }
    auto safe = [&](const Candidate& c) {
        if (c.open != 0 && own_in(c.sy + 3 * c.open, c.sx) != 0) return false;
        for (const Shadow& sh : shadows)
            for (int k = 0; k < c.n; ++k)
                if (c.cells[k].y >= sh.y0 && c.cells[k].y <= sh.y1 && c.cells[k].x >= sh.x0 && c.cells[k].x <= sh.x1)
                    return false;
        return true;
    };
    auto score = [&](Candidate& c) {
        c.score = safe(c) ? game.gain(c.cells, c.n) : 0;
        return c.score;
    };

    // A whole block with its top-left corner at (y, x), if its cells are free.
    auto push_block = [&](int y, int x, int pref) {
        if (!game.on_board(y, x) || !game.on_board(y + 1, x + 1)) return false;
        Candidate c;
        c.cells[0] = {y, x};
        c.cells[1] = {y, x + 1};
        c.cells[2] = {y + 1, x};
        c.cells[3] = {y + 1, x + 1};
        c.n = 4;
        for (int k = 0; k < 4; ++k)
            if (game.at(c.cells[k].y, c.cells[k].x) != 0) return false;
        c.pref = pref;
        c.bound();
        if (score(c) <= 0) return false;
        heap.push(c);
        return true;
    };

    // Lattice slots, nearest first (bucketed by distance).
    int found = 0;
    {
        std::vector<std::vector<std::pair<int, int>>> buckets;
        for (int y = 0; y + 1 < H; y += 3)
            for (int x = 0; x + 1 < W; x += 4) {
                if (game.at(y, x) || game.at(y, x + 1) || game.at(y + 1, x) || game.at(y + 1, x + 1)) continue;
                int d = dist_at(y, x);
                if (d < 0) d = H + W;
                if (static_cast<std::size_t>(d) >= buckets.size()) buckets.resize(static_cast<std::size_t>(d) + 1);
                buckets[static_cast<std::size_t>(d)].push_back({y, x});
            }
        for (std::size_t d = 0; d < buckets.size() && found < kWantSlots; ++d) {
            for (const auto& s : buckets[d]) {
                const int y = s.first, x = s.second;
                const Cell block[4] = {{y, x}, {y, x + 1}, {y + 1, x}, {y + 1, x + 1}};
                bool any = false;
                Candidate best;
                for (int skip = -1; skip < 4; ++skip) {  // -1: the whole block, else an L-tromino
                    Candidate c;
                    for (int k = 0; k < 4; ++k)
                        if (k != skip) c.cells[c.n++] = block[k];
                    if (skip >= 0) {
                        c.open = skip < 2 ? -1 : 1;
                        c.sy = y;
                        c.sx = x;
                    }
                    c.pref = static_cast<int>(d);
                    c.bound();
                    if (score(c) <= 0) continue;
                    heap.push(c);
                    if (!any || Worse()(best, c)) best = c;
                    any = true;
                }
                if (any) ++found;
                if (found >= kWantSlots) break;
            }
        }
    }

    // The missing cell of an L of ours whose birth is held up (an enemy cell touches it).
    for (int y = 0; y + 1 < H; y += 3)
        for (int x = 0; x + 1 < W; x += 4) {
            if (own_in(y, x) != 3) continue;
            for (int k = 0; k < 4; ++k) {
                Candidate c;
                c.cells[0] = {y + k / 2, x + k % 2};
                if (game.at(c.cells[0].y, c.cells[0].x) != 0) continue;
                c.n = 1;
                c.pref = dist_at(y, x);
                c.bound();
                if (score(c) > 0) heap.push(c);
            }
        }

    // Single cells that stop the enemy's pending births.
    if (!enemy_cells.empty()) {
        std::vector<int> near_birth(area, 0);
        std::vector<std::uint8_t> seen(area, 0);
        std::vector<Cell> births;
        for (const Cell& e : enemy_cells) {
            for (int dy = -1; dy <= 1; ++dy)
                for (int dx = -1; dx <= 1; ++dx) {
                    const int y = e.y + dy, x = e.x + dx;
                    if (!game.on_board(y, x) || game.at(y, x) != 0) continue;
                    const std::size_t i = static_cast<std::size_t>(y) * W + x;
                    if (seen[i]) continue;
                    seen[i] = 1;
                    int c1 = 0, c2 = 0;
                    for (int ay = -1; ay <= 1; ++ay)
                        for (int ax = -1; ax <= 1; ++ax) {
                            if (!ay && !ax) continue;
                            const std::uint8_t v = game.at(y + ay, x + ax);
                            c1 += (v == 1);
                            c2 += (v == 2);
                        }
                    if (c2 != 3 || c1 != 0) continue;
                    births.push_back({y, x});
                    // A pending enemy birth at (y, x): any own cell at or next to it stops it.
                    for (int ay = -1; ay <= 1; ++ay)
                        for (int ax = -1; ax <= 1; ++ax) {
                            const int by = y + ay, bx = x + ax;
                            if (game.on_board(by, bx) && game.at(by, bx) == 0)
                                ++near_birth[static_cast<std::size_t>(by) * W + bx];
                        }
                }
        }
        std::vector<std::pair<int, int>> blockers;  // (-births covered, index)
        for (std::size_t i = 0; i < area; ++i)
            if (near_birth[i] > 0) blockers.push_back({-near_birth[i], static_cast<int>(i)});
        std::sort(blockers.begin(), blockers.end());
        if (blockers.size() > static_cast<std::size_t>(kMaxBlockers)) blockers.resize(kMaxBlockers);
        for (const auto& b : blockers) {
            Candidate c;
            c.cells[0] = {b.second / W, b.second % W};
            c.n = 1;
            c.pref = dist_at(c.cells[0].y, c.cells[0].x);
            c.bound();
            if (score(c) > 0) heap.push(c);
        }
        // Blocks touching a pending birth: a still life of ours that stops it for good.
        std::vector<std::uint8_t> tried(area, 0);
        std::sort(births.begin(), births.end(), [](const Cell& a, const Cell& b) {
            return a.y != b.y ? a.y < b.y : a.x < b.x;
        });
        for (std::size_t k = 0; k < births.size() && k < static_cast<std::size_t>(kMaxWallBirths); ++k)
            for (int y = births[k].y - 2; y <= births[k].y + 1; ++y)
                for (int x = births[k].x - 2; x <= births[k].x + 1; ++x) {
                    if (!game.on_board(y, x)) continue;
                    std::uint8_t& t = tried[static_cast<std::size_t>(y) * W + x];
                    if (t) continue;
                    t = 1;
                    push_block(y, x, dist_at(y, x));
                }
        // When the lattice is running out: blocks in the holes of the enemy's still lifes (a
        // free 2x2 just under an enemy cell), ground the enemy can never use itself.
        if (found < kWantSlots) {
            int evaluated = 0;
            for (const Cell& e : enemy_cells) {
                if (evaluated >= kMaxHoles) break;
                for (int x = e.x - 1; x <= e.x; ++x) {
                    const int y = e.y + 1;
                    if (!game.on_board(y, x) || !game.on_board(y + 1, x + 1)) continue;
                    std::uint8_t& t = tried[static_cast<std::size_t>(y) * W + x];
                    if (t) continue;
                    t = 1;
                    if (game.at(y, x) || game.at(y, x + 1) || game.at(y + 1, x) || game.at(y + 1, x + 1)) continue;
                    ++evaluated;
                    push_block(y, x, dist_at(y, x));
                }
            }
        }
    }

    // Lazy greedy: re-score a candidate when a placement accepted since it was scored lies
    // within its simulated neighbourhood.
    std::vector<Candidate> accepted;
    std::vector<Cell> moves;
    int budget = kBudget;
    while (!heap.empty() && budget > 0) {
        Candidate c = heap.top();
        heap.pop();
        if (c.n > budget) continue;
        bool free = true;
        for (int k = 0; k < c.n; ++k)
            if (game.at(c.cells[k].y, c.cells[k].x) != 0) free = false;
        if (!free) continue;
        bool stale = false;
        const int reach = 2 * kGens + 2;
        for (std::size_t a = static_cast<std::size_t>(c.version); a < accepted.size() && !stale; ++a) {
            const Candidate& p = accepted[a];
            if (p.y1 >= c.y0 - reach && p.y0 <= c.y1 + reach && p.x1 >= c.x0 - reach && p.x0 <= c.x1 + reach) stale = true;
        }
        if (!stale && !safe(c)) continue;
        if (stale) {
            c.version = static_cast<int>(accepted.size());
            if (score(c) > 0) heap.push(c);
            continue;
        }
        for (int k = 0; k < c.n; ++k) {
            game.grid[game.idx(c.cells[k].y, c.cells[k].x)] = 1;
            moves.push_back(c.cells[k]);
        }
        budget -= c.n;
        accepted.push_back(c);
        if (c.open != 0) add_shadow(c.sy, c.sx, c.open);
    }

    std::string out = "[";
    for (std::size_t i = 0; i < moves.size(); ++i) {
        if (i) out += ',';
        out += '[' + std::to_string(moves[i].y) + ',' + std::to_string(moves[i].x) + ']';
    }
    out += "]\n";
    std::fputs(out.c_str(), stdout);
    return 0;
}
