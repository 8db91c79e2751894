// The one strict reader of JSON fields, for the records the runner reads back (replays, stored
// league games, a repository's state) and the files people write (bot.json, tournament files):
// a field of the wrong type or out of range is an error naming it and what it holds, never a
// silent conversion or a default (a float or a huge number converted to int would be undefined).
#pragma once

#include <nlohmann/json.hpp>

#include <array>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace gol::runner {

// What is wrong with a JSON text the runner reads; its reader's caller names the file.
struct RecordError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// `text` as JSON; throws RecordError "invalid JSON: ..." (a number too large to hold too).
nlohmann::json parse_json(std::string_view text);

// `name` (quoted, as a message shows it) is VALUE, not `expected`.
RecordError is_not(std::string_view name, const nlohmann::json& v, std::string_view expected);

// j[key]; throws unless j is an object that has it.
const nlohmann::json& field(const nlohmann::json& j, const char* key);

// v as an integer from lo to hi; `what` names it in the error.
std::int64_t integer(const nlohmann::json& v, const std::string& what, std::int64_t lo, std::int64_t hi);

std::string string_value(const nlohmann::json& v, const std::string& what);

// j[key] as a list of two, one for each seat.
const nlohmann::json& seat_pair(const nlohmann::json& j, const char* key);
std::array<std::string, 2> string_pair(const nlohmann::json& j, const char* key);

// An object whose every field is optional: each key one of `keys`, else an error listing them;
// a field left out is nullopt, one given is of its type and range or an error. `where` begins
// each message (an item of a list: "\"repositories\"[2]: ").
class JsonObject {
public:
    JsonObject(const nlohmann::json& j, std::vector<std::string_view> keys, std::string where = "");

    // The field, or null when it is left out.
    const nlohmann::json* find(const char* key) const;
    std::optional<int> integer(const char* key, int lo, int hi) const;
    // From 0 to 2^64-1: a seed.
    std::optional<std::uint64_t> unsigned_integer(const char* key) const;
    // `note` follows what the field must be: "(a shell command)".
    std::optional<bool> boolean(const char* key, std::string_view note = "") const;
    std::optional<std::string> string(const char* key, std::string_view note = "") const;
    std::optional<std::string> choice(const char* key, std::initializer_list<std::string_view> choices) const;
    // Throws RecordError: `key` is what it holds, not `expected`.
    [[noreturn]] void wrong(const char* key, std::string_view expected) const;

private:
    const nlohmann::json& j_;
    std::string where_;
};

}  // namespace gol::runner
