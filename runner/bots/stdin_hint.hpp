// The hint for an argv bot that reads its board from stdin: it finds stdin empty, and its
// language's JSON reader says only that the input ended, which names neither stdin nor the fix.
#pragma once

#include "runner/bots/bot.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace gol::runner {

// For an argv bot whose failed move's stderr reads as a parse of empty input or a read of stdin
// at its end (stdin_hint.cpp lists the signs): what it does wrong and the fix. Nothing else.
std::optional<std::string> stdin_hint(Protocol protocol, std::string_view err);

}  // namespace gol::runner
