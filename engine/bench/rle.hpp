// Golly's RLE pattern format, read into cells (top-left corner at (0, 0)).
#pragma once

#include "engine/board.hpp"

#include <stdexcept>
#include <string>
#include <vector>

namespace gol::bench {

struct RlePattern {
    int width = 0, height = 0;  // from the header line
    std::string rule;
    std::vector<Cell> cells;
};

// Throws std::runtime_error naming what is wrong.
RlePattern parse_rle(const std::string& text);

}  // namespace gol::bench
