// The replay viewer (docs/viewer.md): one self-contained HTML page that rebuilds a game from its
// recorded moves with a JavaScript engine and plays it on a canvas.
#pragma once

#include "runner/replay.hpp"

#include <string>

namespace gol::runner {

// The page for `replay`. It also carries the live cells of each generation as this runner's
// engine computes them (by playing the replay again), which the page checks its own against.
std::string viewer_page(const Replay& replay);

}  // namespace gol::runner
