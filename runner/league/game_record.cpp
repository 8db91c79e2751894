#include "runner/league/game_record.hpp"

#include "runner/text/json_text.hpp"

#include <nlohmann/json.hpp>

#include <climits>
#include <cstdint>
#include <vector>

namespace gol::runner {

using nlohmann::json;

namespace {

json inputs_json(const GameInputs& in) {
    return {{"rules_version", in.rules_version},
            {"bots", in.bots},
            {"hashes", in.hashes},
            {"game_index", in.game_index},
            {"seed", in.seed},
            {"width", in.width},
            {"height", in.height},
            {"generations", in.generations},
            {"time_limit_ms", in.time_limit_ms},
            {"memory_limit_mb", in.memory_limit_mb},
            {"cpu_limit_s", in.cpu_limit_s},
            {"sandboxed", in.sandboxed}};
}

// Strict readers: a field of the wrong type or out of range is an error naming it, never a
// silent conversion (a float or a huge number converted to int would be undefined).
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

int int_field(const json& j, const char* key) { return static_cast<int>(integer(field(j, key), key, INT_MIN, INT_MAX)); }

std::string string_value(const json& v, const std::string& what) {
    if (!v.is_string()) throw RecordError("\"" + what + "\" is " + json_text(v) + ", not a string");
    return v.get<std::string>();
}

const json& pair(const json& j, const char* key) {
    const json& v = field(j, key);
    if (!v.is_array() || v.size() != 2) throw RecordError(std::string("\"") + key + "\" is not a list of two, one for each seat");
    return v;
}

std::array<std::string, 2> string_pair(const json& j, const char* key) {
    const json& v = pair(j, key);
    return {string_value(v[0], key), string_value(v[1], key)};
}

GameInputs read_inputs(const json& j) {
    GameInputs in;
    in.rules_version = string_value(field(j, "rules_version"), "rules_version");
    in.bots = string_pair(j, "bots");
    in.hashes = string_pair(j, "hashes");
    in.game_index = int_field(j, "game_index");
    const json& seed = field(j, "seed");
    if (!seed.is_number_unsigned()) throw RecordError("\"seed\" is " + json_text(seed) + ", not a non-negative integer");
    in.seed = seed.get<std::uint64_t>();
    in.width = int_field(j, "width");
    in.height = int_field(j, "height");
    in.generations = int_field(j, "generations");
    in.time_limit_ms = int_field(j, "time_limit_ms");
    in.memory_limit_mb = int_field(j, "memory_limit_mb");
    in.cpu_limit_s = int_field(j, "cpu_limit_s");
    const json& sandboxed = field(j, "sandboxed");
    if (!sandboxed.is_boolean()) throw RecordError("\"sandboxed\" is " + json_text(sandboxed) + ", not true or false");
    in.sandboxed = sandboxed.get<bool>();
    return in;
}

// The names of the inputs in which `stored` differs from `scheduled`.
std::string differences(const GameInputs& stored, const GameInputs& scheduled) {
    std::vector<std::string> names;
    auto differs = [&](bool d, const char* name) {
        if (d) names.emplace_back(name);
    };
    differs(stored.rules_version != scheduled.rules_version, "rules_version");
    differs(stored.bots != scheduled.bots, "bots");
    differs(stored.hashes != scheduled.hashes, "hashes");
    differs(stored.game_index != scheduled.game_index, "game_index");
    differs(stored.seed != scheduled.seed, "seed");
    differs(stored.width != scheduled.width || stored.height != scheduled.height, "board");
    differs(stored.generations != scheduled.generations, "generations");
    differs(stored.time_limit_ms != scheduled.time_limit_ms, "time_limit_ms");
    differs(stored.memory_limit_mb != scheduled.memory_limit_mb, "memory_limit_mb");
    differs(stored.cpu_limit_s != scheduled.cpu_limit_s, "cpu_limit_s");
    differs(stored.sandboxed != scheduled.sandboxed, "sandboxed");
    std::string out;
    for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
    return out;
}

// The result, each value within what a game with `in` can produce, and consistent with the
// rule that ended it (match.cpp's judge()).
void read_result(const json& j, const GameInputs& in, GameRecord& r) {
    GameResult& g = r.result;
    const std::string reason = string_value(field(j, "reason"), "reason");
    if (reason != "extinction" && reason != "generations")
        throw RecordError("\"reason\" is \"" + reason + "\", not \"extinction\" or \"generations\"");
    g.verdict.reason = reason == "extinction" ? EndReason::extinction : EndReason::generations;
    const json& winner = field(j, "winner");
    if (!winner.is_null() && !(winner.is_number_integer() && (winner == 1 || winner == 2)))
        throw RecordError("\"winner\" is " + json_text(winner) + ", not 1, 2 or null");
    g.verdict.winner_seat = winner.is_null() ? 0 : winner.get<int>();

    g.generations = static_cast<int>(integer(field(j, "generations"), "generations", 1, in.generations));
    if (g.verdict.reason == EndReason::generations && g.generations != in.generations)
        throw RecordError("it ended by generations after " + std::to_string(g.generations) + " of " +
                          std::to_string(in.generations));
    const json& cells = pair(j, "cells");
    const std::int64_t board = static_cast<std::int64_t>(in.width) * in.height;
    for (int s = 0; s < 2; ++s) g.cells[s] = integer(cells[s], "cells", 0, board);

    const bool extinct1 = g.cells[0] == 0, extinct2 = g.cells[1] == 0;
    if (g.verdict.reason == EndReason::extinction) {
        if (extinct1 == extinct2) throw RecordError("it ended by extinction, but not exactly one side has 0 cells");
        if (g.verdict.winner_seat != (extinct1 ? 2 : 1))
            throw RecordError("it ended by extinction, but the winner is not the side with cells left");
    } else {
        if (extinct1 != extinct2)
            throw RecordError("one side has 0 cells, which ends a game by extinction, but the reason is generations");
        const int larger = g.cells[0] > g.cells[1] ? 1 : g.cells[1] > g.cells[0] ? 2 : 0;
        if (g.verdict.winner_seat != larger)
            throw RecordError("it ended by generations, but the winner is not the side with more cells (or a draw when equal)");
    }

    const json& forfeits = pair(j, "forfeits");
    for (int s = 0; s < 2; ++s) g.forfeits[s] = static_cast<int>(integer(forfeits[s], "forfeits", 0, g.generations));
    const json& reasons = pair(j, "forfeit_reasons");
    for (int s = 0; s < 2; ++s) {
        if (!reasons[s].is_object()) throw RecordError("\"forfeit_reasons\" is not an object for each seat");
        std::int64_t sum = 0;
        for (const auto& [why, n] : reasons[s].items()) {
            sum += integer(n, "forfeit_reasons", 1, g.generations);
            r.forfeit_reasons[s][why] = static_cast<int>(n.get<std::int64_t>());
        }
        if (sum != g.forfeits[s])
            throw RecordError("seat " + std::to_string(s + 1) + "'s forfeit_reasons add up to " + std::to_string(sum) +
                              ", not its " + std::to_string(g.forfeits[s]) + " forfeits");
    }
    r.last_forfeit = string_pair(j, "last_forfeit");
}

}  // namespace

std::string record_text(const GameRecord& r) {
    const GameResult& g = r.result;
    const json j = {{"key", r.key},
                    {"inputs", inputs_json(r)},
                    {"winner", g.verdict.winner_seat == 0 ? json(nullptr) : json(g.verdict.winner_seat)},
                    {"reason", name(g.verdict.reason)},
                    {"generations", g.generations},
                    {"cells", g.cells},
                    {"forfeits", g.forfeits},
                    {"forfeit_reasons", r.forfeit_reasons},
                    {"last_forfeit", r.last_forfeit}};
    return json_text(j, 2) + "\n";
}

GameRecord read_record(std::string_view text, const ScheduledGame& game) {
    json j;
    try {
        j = json::parse(text);
    } catch (const json::exception& e) {
        throw RecordError(std::string("invalid JSON: ") + e.what());
    }
    if (!j.is_object()) throw RecordError("it is not a JSON object");
    if (!j.contains("inputs")) throw RecordError("it names no inputs (a record from an older runner)");
    GameRecord r;
    static_cast<GameInputs&>(r) = read_inputs(field(j, "inputs"));
    if (std::string d = differences(r, game.inputs); !d.empty())
        throw RecordError("it was played with other inputs than the scheduled game's (" + d + " differ)");
    r.key = string_value(field(j, "key"), "key");
    if (r.key != game.key) throw RecordError("its key is \"" + r.key + "\", not the scheduled game's");
    read_result(j, game.inputs, r);
    return r;
}

}  // namespace gol::runner
