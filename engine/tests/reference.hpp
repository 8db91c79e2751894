// The rules written the obvious way, one byte per cell: the yardstick for the fast engine.
#pragma once

#include "engine/board.hpp"

#include <vector>

namespace gol::testing {

class ReferenceBoard {
public:
    ReferenceBoard(int height, int width)
        : h_(height), w_(width), cells_(static_cast<std::size_t>(height) * width, 0) {}

    int at(int y, int x) const {
        if (y < 0 || y >= h_ || x < 0 || x >= w_) return 0;
        return cells_[static_cast<std::size_t>(y) * w_ + x];
    }

    int place(int player, const std::vector<Cell>& cells) {
        int placed = 0;
        for (const Cell& c : cells) {
            if (c.y < 0 || c.y >= h_ || c.x < 0 || c.x >= w_) continue;
            int& slot = cells_[static_cast<std::size_t>(c.y) * w_ + c.x];
            if (slot != 0) continue;
            slot = player;
            ++placed;
        }
        return placed;
    }

    void step() {
        std::vector<int> next(cells_.size(), 0);
        for (int y = 0; y < h_; ++y)
            for (int x = 0; x < w_; ++x) {
                int n[3] = {0, 0, 0};
                for (int dy = -1; dy <= 1; ++dy)
                    for (int dx = -1; dx <= 1; ++dx)
                        if (dy || dx) ++n[at(y + dy, x + dx)];
                const int self = at(y, x);
                int out = 0;
                if (self != 0) {
                    // Only friendly neighbours count for survival.
                    if (n[self] == 2 || n[self] == 3) out = self;
                } else if (n[1] == 3 && n[2] == 0) {
                    out = 1;
                } else if (n[2] == 3 && n[1] == 0) {
                    out = 2;
                }
                next[static_cast<std::size_t>(y) * w_ + x] = out;
            }
        cells_.swap(next);
    }

    long population(int player) const {
        long n = 0;
        for (int c : cells_) n += c == player;
        return n;
    }

private:
    int h_, w_;
    std::vector<int> cells_;
};

}  // namespace gol::testing
