// JSON text for files and output. Bots control much of what we write (forfeit details quote
// their output, names come from file names), so bytes that are not UTF-8 become U+FFFD
// instead of making nlohmann throw.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace gol::runner {

inline std::string json_text(const nlohmann::json& j, int indent = -1) {
    return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace gol::runner
