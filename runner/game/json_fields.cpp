#include "runner/game/json_fields.hpp"

#include "runner/text/json_text.hpp"

namespace gol::runner {

using nlohmann::json;

const json& field(const json& j, const char* key) {
    if (!j.is_object() || !j.contains(key)) throw RecordError(std::string("it has no \"") + key + "\"");
    return j[key];
}

std::int64_t integer(const json& v, const std::string& what, std::int64_t lo, std::int64_t hi) {
    if (v.is_number_unsigned() && v.get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX))
        throw RecordError("\"" + what + "\" is " + v.dump() + ", not from " + std::to_string(lo) + " to " + std::to_string(hi));
    if (!v.is_number_integer()) throw RecordError("\"" + what + "\" is " + json_text(v) + ", not an integer");
    const auto n = v.get<std::int64_t>();
    if (n < lo || n > hi)
        throw RecordError("\"" + what + "\" is " + std::to_string(n) + ", not from " + std::to_string(lo) + " to " +
                          std::to_string(hi));
    return n;
}

std::string string_value(const json& v, const std::string& what) {
    if (!v.is_string()) throw RecordError("\"" + what + "\" is " + json_text(v) + ", not a string");
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

}  // namespace gol::runner
