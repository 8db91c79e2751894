#include "runner/game/json_fields.hpp"

#include "runner/text/json_text.hpp"
#include "runner/text/terminal_text.hpp"
#include "runner/text/text_width.hpp"

#include <algorithm>

namespace gol::runner {

using nlohmann::json;

namespace {

std::string quoted(const std::string& name) { return "\"" + name + "\""; }

std::string range(std::int64_t lo, std::int64_t hi) { return "from " + std::to_string(lo) + " to " + std::to_string(hi); }

}  // namespace

RecordError is_not(std::string_view name, const json& v, std::string_view expected) {
    // A value from a file: on one line, and cut short.
    return RecordError(std::string(name) + " is " + terminal_line(cut_text(json_text(v), 60, "...")) + ", not " +
                       std::string(expected));
}

json parse_json(std::string_view text) {
    try {
        return json::parse(text);
    } catch (const json::exception& e) {  // parse errors, and numbers too large to hold
        throw RecordError(std::string("invalid JSON: ") + e.what());
    }
}

const json& field(const json& j, const char* key) {
    if (!j.is_object() || !j.contains(key)) throw RecordError(std::string("it has no \"") + key + "\"");
    return j[key];
}

std::int64_t integer(const json& v, const std::string& what, std::int64_t lo, std::int64_t hi) {
    if (v.is_number_unsigned() && v.get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX))
        throw is_not(quoted(what), v, range(lo, hi));
    // Any integer at all needs no range said.
    if (!v.is_number_integer())
        throw is_not(quoted(what), v, lo == INT64_MIN && hi == INT64_MAX ? "an integer" : "an integer " + range(lo, hi));
    const auto n = v.get<std::int64_t>();
    if (n < lo || n > hi) throw is_not(quoted(what), v, range(lo, hi));
    return n;
}

std::string string_value(const json& v, const std::string& what) {
    if (!v.is_string()) throw is_not(quoted(what), v, "a string");
    return v.get<std::string>();
}

const json& seat_pair(const json& j, const char* key) {
    const json& v = field(j, key);
    if (!v.is_array() || v.size() != 2) throw RecordError(std::string("\"") + key + "\" is not a list of two, one for each seat");
    return v;
}

std::array<std::string, 2> string_pair(const json& j, const char* key) {
    const json& v = seat_pair(j, key);
    return {string_value(v[0], key), string_value(v[1], key)};
}

JsonObject::JsonObject(const json& j, std::vector<std::string_view> keys, std::string where)
    : j_(j), where_(std::move(where)) {
    if (!j.is_object()) throw RecordError(where_ + "not a JSON object");
    for (const auto& [key, value] : j.items())
        if (std::find(keys.begin(), keys.end(), key) == keys.end()) {
            std::string allowed;
            for (std::string_view k : keys) allowed += (allowed.empty() ? "" : ", ") + std::string(k);
            throw RecordError(where_ + "unknown key \"" + terminal_line(key) + "\" (allowed: " + allowed + ")");
        }
}

const json* JsonObject::find(const char* key) const {
    const auto it = j_.find(key);
    return it == j_.end() ? nullptr : &*it;
}

void JsonObject::wrong(const char* key, std::string_view expected) const {
    throw RecordError(where_ + is_not(quoted(key), j_[key], expected).what());
}

std::optional<int> JsonObject::integer(const char* key, int lo, int hi) const {
    const json* v = find(key);
    if (!v) return std::nullopt;
    try {
        return static_cast<int>(runner::integer(*v, key, lo, hi));
    } catch (const RecordError& e) {
        throw RecordError(where_ + e.what());
    }
}

std::optional<std::uint64_t> JsonObject::unsigned_integer(const char* key) const {
    const json* v = find(key);
    if (!v) return std::nullopt;
    // A JSON reader keeps a non-negative integer unsigned: the whole range of a seed.
    if (!v->is_number_unsigned()) wrong(key, "a non-negative integer");
    return v->get<std::uint64_t>();
}

std::optional<bool> JsonObject::boolean(const char* key, std::string_view note) const {
    const json* v = find(key);
    if (!v) return std::nullopt;
    if (!v->is_boolean()) wrong(key, "true or false" + std::string(note));
    return v->get<bool>();
}

std::optional<std::string> JsonObject::string(const char* key, std::string_view note) const {
    const json* v = find(key);
    if (!v) return std::nullopt;
    if (!v->is_string()) wrong(key, "a string" + std::string(note));
    return v->get<std::string>();
}

std::optional<std::string> JsonObject::choice(const char* key, std::initializer_list<std::string_view> choices) const {
    const json* v = find(key);
    if (!v) return std::nullopt;
    if (v->is_string() && std::find(choices.begin(), choices.end(), v->get<std::string>()) != choices.end())
        return v->get<std::string>();
    std::string list;
    for (std::size_t i = 0; i < choices.size(); ++i)
        list += (i == 0 ? "\"" : i + 1 == choices.size() ? " or \"" : ", \"") + std::string(choices.begin()[i]) + "\"";
    wrong(key, list);
}

}  // namespace gol::runner
