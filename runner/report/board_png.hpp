// A picture of a board as PNG, in the viewer's colours (docs/viewer.md).
#pragma once

#include "engine/board.hpp"

#include <string>

namespace gol::runner {

// Pixels per cell: as many as keep the picture about 2000 pixels across (a 1000x1000 board
// gets 2), at least 1 and at most 16.
int png_cell_size(const Board& board);

// The PNG file's bytes. Throws std::runtime_error if libpng fails.
std::string board_png(const Board& board);

}  // namespace gol::runner
