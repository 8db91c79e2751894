#include "work_count.hpp"

namespace gol::bench {

WorkCount::WorkCount(int height, int width, int unit_height, int unit_width)
    : height_(height),
      width_(width),
      unit_height_(unit_height),
      unit_width_(unit_width),
      units_across_((width + unit_width - 1) / unit_width) {
    const std::size_t cells = static_cast<std::size_t>(height) * static_cast<std::size_t>(width);
    for (auto& grid : grids_) grid.assign(cells, 0);
    const std::size_t units_down = static_cast<std::size_t>((height + unit_height - 1) / unit_height);
    counted_.assign(units_down * static_cast<std::size_t>(units_across_), -1);
}

void WorkCount::mark(int y, int x) {
    for (int dy = -1; dy <= 1; ++dy) {
        const int row = y + dy;
        if (row < 0 || row >= height_) continue;
        for (int dx = -1; dx <= 1; ++dx) {
            const int col = x + dx;
            if (col < 0 || col >= width_) continue;
            std::int64_t& last = counted_[static_cast<std::size_t>(row / unit_height_) * units_across_ +
                                          static_cast<std::size_t>(col / unit_width_)];
            if (last == step_) continue;
            last = step_;
            ++units_;
        }
    }
}

void WorkCount::before_step(const Board& board) {
    // The slot after t-1 held t-2 last step and is reused for t; t-2 is then two slots on.
    slot_ = (slot_ + 1) % 3;
    const int older = (slot_ + 1) % 3;
    for (const LiveCell& c : lists_[slot_]) owner(slot_, c.y, c.x) = 0;
    board.live_cells(lists_[slot_]);
    for (const LiveCell& c : lists_[slot_]) owner(slot_, c.y, c.x) = static_cast<std::uint8_t>(c.owner);
    // A cell differs if it is live now under another owner than at t-2, or was live then and is empty now.
    for (const LiveCell& c : lists_[slot_]) {
        if (owner(older, c.y, c.x) == static_cast<std::uint8_t>(c.owner)) continue;
        ++changed_cells_;
        mark(c.y, c.x);
    }
    for (const LiveCell& c : lists_[older]) {
        if (owner(slot_, c.y, c.x) != 0) continue;
        ++changed_cells_;
        mark(c.y, c.x);
    }
    ++step_;
}

}  // namespace gol::bench
