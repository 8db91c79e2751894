// The replay viewer (docs/viewer.md): one self-contained HTML page that rebuilds a game from its
// recorded moves with a JavaScript engine and plays it on a canvas.
#pragma once

#include "runner/game/replay.hpp"

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gol::runner {

// The page for `replay`. It also carries `counts`, each generation's live cells by seat as this
// runner's engine counted them (GenerationCounts), which the page checks its own against.
// `leaderboard`, when not empty, is the address of the league's leaderboard page relative to
// this page, which the page links back to.
std::string viewer_page(const Replay& replay, const std::vector<std::array<std::int64_t, 2>>& counts,
                        std::string_view leaderboard = {});

// The same, counting by playing the replay again.
std::string viewer_page(const Replay& replay, std::string_view leaderboard = {});

}  // namespace gol::runner
