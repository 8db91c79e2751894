// Strict readers of JSON fields for the records the runner reads back (replays, stored league
// games): a field of the wrong type or out of range is an error naming it, never a silent
// conversion or a default (a float or a huge number converted to int would be undefined).
#pragma once

#include <nlohmann/json.hpp>

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace gol::runner {

// What is wrong with a record's JSON.
struct RecordError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// j[key]; throws unless j is an object that has it.
const nlohmann::json& field(const nlohmann::json& j, const char* key);

// v as an integer from lo to hi; `what` names it in the error.
std::int64_t integer(const nlohmann::json& v, const std::string& what, std::int64_t lo, std::int64_t hi);

std::string string_value(const nlohmann::json& v, const std::string& what);

// j[key] as a list of two, one for each seat.
const nlohmann::json& seat_pair(const nlohmann::json& j, const char* key);
std::array<std::string, 2> string_pair(const nlohmann::json& j, const char* key);

}  // namespace gol::runner
