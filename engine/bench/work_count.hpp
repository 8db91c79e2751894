// The work an engine of this kind cannot avoid on a given run, counted from the boards alone:
// an engine that recomputes a unit of cells (a 64-cell row word, as this engine does, or any
// other block) only when the cells around it differ from two generations earlier (the rule
// that lets settled still lifes and period-2 oscillators cost nothing) must still recompute
// every unit counted here. scripts/bench/engine compares these counts between workloads to
// show how far apart their costs can be at best.
#pragma once

#include "engine/board.hpp"

#include <array>
#include <cstdint>
#include <vector>

namespace gol::bench {

class WorkCount {
public:
    // Units are unit_height rows by unit_width columns, aligned to the board's top-left corner.
    WorkCount(int height, int width, int unit_height = 1, int unit_width = 64);

    // Call with generation t before each step: counts what the step from t needs.
    void before_step(const Board& board);

    // Cells that differ between generation t and t-2, summed over the steps.
    std::int64_t changed_cells() const { return changed_cells_; }
    // Units with such a cell among their cells or neighbours, summed over the steps.
    std::int64_t units() const { return units_; }

private:
    std::uint8_t& owner(int slot, int y, int x) {
        return grids_[slot][static_cast<std::size_t>(y) * width_ + static_cast<std::size_t>(x)];
    }
    void mark(int y, int x);

    int height_, width_, unit_height_, unit_width_, units_across_;
    // Generations t, t-1 and t-2 in rotating slots: live cells and an owner per cell. Before
    // the first step the board was empty.
    std::array<std::vector<LiveCell>, 3> lists_;
    std::array<std::vector<std::uint8_t>, 3> grids_;
    int slot_ = 0;  // the slot of generation t
    std::vector<std::int64_t> counted_;  // per unit: the last step that counted it
    std::int64_t step_ = 0;
    std::int64_t changed_cells_ = 0;
    std::int64_t units_ = 0;
};

}  // namespace gol::bench
