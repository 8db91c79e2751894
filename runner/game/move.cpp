#include "runner/game/move.hpp"
#include "runner/text/text_width.hpp"

#include <array>

namespace gol::runner {

namespace {

constexpr std::array<std::string_view, 15> kForfeitNames = {
    "timeout",        "signal",          "exit_status",     "output_cap", "not_json", "not_pairs",      "non_integer",
    "too_many_cells", "could_not_start", "board_too_large", "protocol",   "gave_up",  "resource_limit", "disconnected",
    "time_bank",
};

}  // namespace

std::string_view name(ForfeitKind kind) { return kForfeitNames[static_cast<std::size_t>(kind)]; }

std::string text_start(std::string_view text, int columns) {
    std::string_view line = text.substr(0, text.find('\n'));
    if (line.ends_with('\r')) line.remove_suffix(1);  // a line ended the Windows way
    return cut_text(line, columns, "...");
}

std::vector<std::string> last_lines(std::string_view err, std::size_t n) {
    std::vector<std::string> lines;
    while (!err.empty() && lines.size() < n) {
        const std::size_t start = err.find_last_of('\n', err.size() - 1);
        const std::string_view line = start == std::string_view::npos ? err : err.substr(start + 1);
        if (line.find_first_not_of(" \t\r") != std::string_view::npos) lines.push_back(text_start(line, 203));
        err = start == std::string_view::npos ? std::string_view{} : err.substr(0, start);
    }
    return {lines.rbegin(), lines.rend()};
}

std::optional<ForfeitKind> forfeit_kind_from_name(std::string_view text) {
    for (std::size_t i = 0; i < kForfeitNames.size(); ++i)
        if (kForfeitNames[i] == text) return static_cast<ForfeitKind>(i);
    return std::nullopt;
}

}  // namespace gol::runner
