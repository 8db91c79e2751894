#include "engine/board.hpp"

#include <stdexcept>
#include <string>

namespace gol {

Board::Board(int height, int width) : height_(height), width_(width) {
    if (height < 1 || height > max_side || width < 1 || width > max_side)
        throw std::invalid_argument("board size " + std::to_string(width) + "x" + std::to_string(height) +
                                    " is out of range: width and height must be 1.." + std::to_string(max_side));
    cells_.assign(static_cast<std::size_t>(height) * width, Player::none);
}

int Board::height() const { return height_; }
int Board::width() const { return width_; }

Player Board::at(int y, int x) const {
    if (y < 0 || y >= height_ || x < 0 || x >= width_) return Player::none;
    return cells_[static_cast<std::size_t>(y) * width_ + x];
}

int Board::place(Player player, std::span<const Cell> cells) {
    int placed = 0;
    for (const Cell& c : cells) {
        if (c.y < 0 || c.y >= height_ || c.x < 0 || c.x >= width_) continue;
        Player& slot = cells_[static_cast<std::size_t>(c.y) * width_ + c.x];
        if (slot != Player::none) continue;
        slot = player;
        ++placed;
    }
    return placed;
}

void Board::step() {
    std::vector<Player> next(cells_.size(), Player::none);
    for (int y = 0; y < height_; ++y)
        for (int x = 0; x < width_; ++x) {
            int n[3] = {0, 0, 0};
            for (int dy = -1; dy <= 1; ++dy)
                for (int dx = -1; dx <= 1; ++dx)
                    if (dy || dx) ++n[static_cast<int>(at(y + dy, x + dx))];
            Player self = at(y, x);
            Player out = Player::none;
            if (self != Player::none) {
                int own = n[static_cast<int>(self)];
                if (own == 2 || own == 3) out = self;
            } else if (n[1] == 3 && n[2] == 0) {
                out = Player::one;
            } else if (n[2] == 3 && n[1] == 0) {
                out = Player::two;
            }
            next[static_cast<std::size_t>(y) * width_ + x] = out;
        }
    cells_.swap(next);
}

std::int64_t Board::population(Player player) const {
    std::int64_t n = 0;
    for (Player p : cells_) n += (p == player);
    return n;
}

void Board::live_cells(std::vector<LiveCell>& out) const {
    out.clear();
    for (int y = 0; y < height_; ++y)
        for (int x = 0; x < width_; ++x)
            if (Player p = at(y, x); p != Player::none) out.push_back({y, x, p});
}

}  // namespace gol
