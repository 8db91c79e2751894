#include "runner/report/viewer_page.hpp"

#include "runner/text/html_text.hpp"
#include "runner/text/json_text.hpp"
#include "runner/report/viewer_assets.hpp"

#include <stdexcept>
#include <vector>

namespace gol::runner {

namespace {

struct Slot {
    std::string_view placeholder;
    std::string content;
};

// The template with each slot's placeholder (which it must hold exactly once, in the slots' order)
// replaced. Found in the template alone, so nothing filled in is ever taken for a placeholder.
std::string fill(std::string_view page, const std::vector<Slot>& slots) {
    std::string out;
    std::size_t from = 0;
    for (const Slot& s : slots) {
        const std::size_t i = page.find(s.placeholder);
        if (i == std::string_view::npos || i < from || page.find(s.placeholder, i + 1) != std::string_view::npos)
            throw std::logic_error("viewer.html must hold " + std::string(s.placeholder) + " exactly once, in order");
        out.append(page.substr(from, i - from)).append(s.content);
        from = i + s.placeholder.size();
    }
    return out.append(page.substr(from));
}

}  // namespace

std::string viewer_page(const Replay& replay, const std::vector<std::array<std::int64_t, 2>>& counts,
                        std::string_view leaderboard) {
    nlohmann::json data = {{"header", replay.header}, {"moves", replay.ticks}, {"result", replay.result}, {"counts", counts}};
    if (!leaderboard.empty()) data["leaderboard"] = leaderboard;
    return fill(assets::viewer_html,
                {{"/*@STYLE@*/", std::string(assets::viewer_css)},
                 {"@GAME_DATA@", script_safe_json(json_text(data))},
                 {"/*@SCRIPT@*/", std::string(assets::life_js) + "\n" + std::string(assets::viewer_js)}});
}

std::string viewer_page(const Replay& replay, std::string_view leaderboard) {
    GenerationCounts counts;
    resimulate(replay, counts);
    return viewer_page(replay, counts.counts, leaderboard);
}

}  // namespace gol::runner
