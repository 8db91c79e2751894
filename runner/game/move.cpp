#include "runner/game/move.hpp"

#include <array>

namespace gol::runner {

namespace {

constexpr std::array<std::string_view, 13> kForfeitNames = {
    "timeout",     "signal",         "exit_status",     "output_cap",      "not_json", "not_pairs",      "non_integer",
    "too_many_cells", "could_not_start", "board_too_large", "protocol", "gave_up", "resource_limit",
};

}  // namespace

std::string_view name(ForfeitKind kind) { return kForfeitNames[static_cast<std::size_t>(kind)]; }

std::optional<ForfeitKind> forfeit_kind_from_name(std::string_view text) {
    for (std::size_t i = 0; i < kForfeitNames.size(); ++i)
        if (kForfeitNames[i] == text) return static_cast<ForfeitKind>(i);
    return std::nullopt;
}

}  // namespace gol::runner
