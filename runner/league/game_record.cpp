#include "runner/league/game_record.hpp"

#include "runner/text/json_text.hpp"

#include <nlohmann/json.hpp>

#include <climits>
#include <chrono>
#include <cstdint>
#include <limits>
#include <regex>
#include <utility>

namespace gol::runner {

using nlohmann::json;

namespace {

int int_field(const json& j, const char* key) { return static_cast<int>(integer(field(j, key), key, INT_MIN, INT_MAX)); }

// The integer inputs every record has, by their keys: one list for the writer and the reader.
constexpr std::pair<const char*, int GameInputs::*> kIntInputs[] = {
    {"game_index", &GameInputs::game_index},       {"width", &GameInputs::width},
    {"height", &GameInputs::height},               {"generations", &GameInputs::generations},
    {"time_limit_ms", &GameInputs::time_limit_ms}, {"memory_limit_mb", &GameInputs::memory_limit_mb},
    {"cpu_limit_s", &GameInputs::cpu_limit_s}};

// `n` within [lo, hi], with the readers' message naming `what`.
void check_range(std::int64_t n, const char* what, std::int64_t lo, std::int64_t hi) { integer(json(n), what, lo, hi); }

// The result within what a game with `in` can produce, and consistent with the rule that ended
// it (game_loop.cpp's judge()).
void check_result(const GameRecord& r, const GameInputs& in) {
    const GameResult& g = r.result;
    check_range(g.generations, "generations", 1, in.generations);
    if (g.verdict.reason == EndReason::generations && g.generations != in.generations)
        throw RecordError("it ended by generations after " + std::to_string(g.generations) + " of " +
                          std::to_string(in.generations));
    const std::int64_t board = static_cast<std::int64_t>(in.width) * in.height;
    for (int s = 0; s < 2; ++s) check_range(g.cells[s], "cells", 0, board);

    const bool extinct1 = g.cells[0] == 0, extinct2 = g.cells[1] == 0;
    if (g.verdict.reason == EndReason::clock && in.clock_s <= 0)
        throw RecordError("it ended by the clock, but its game has none");
    if (g.verdict.reason == EndReason::forfeit) {
        const int loser = 3 - g.verdict.winner_seat;
        if (g.verdict.winner_seat == 0 || !r.forfeit_reasons[loser - 1].contains(std::string(name(ForfeitKind::disconnected))))
            throw RecordError("it ended by forfeit, but the losing seat has no disconnected forfeit");
    } else if (g.verdict.reason == EndReason::extinction) {
        if (extinct1 == extinct2) throw RecordError("it ended by extinction, but not exactly one side has 0 cells");
        if (g.verdict.winner_seat != (extinct1 ? 2 : 1))
            throw RecordError("it ended by extinction, but the winner is not the side with cells left");
    } else {
        if (extinct1 != extinct2)
            throw RecordError("one side has 0 cells, which ends a game by extinction, but the reason is " +
                              std::string(name(g.verdict.reason)));
        const int larger = g.cells[0] > g.cells[1] ? 1 : g.cells[1] > g.cells[0] ? 2 : 0;
        if (g.verdict.winner_seat != larger)
            throw RecordError("it ended by " + std::string(name(g.verdict.reason)) +
                              ", but the winner is not the side with more cells (or a draw when equal)");
    }

    for (int s = 0; s < 2; ++s) {
        check_range(g.forfeits[s], "forfeits", 0, g.generations);
        std::int64_t sum = 0;
        for (const auto& [why, n] : r.forfeit_reasons[s]) {
            check_range(n, "forfeit_reasons", 1, g.generations);
            sum += n;
        }
        if (sum != g.forfeits[s])
            throw RecordError("seat " + std::to_string(s + 1) + "'s forfeit_reasons add up to " + std::to_string(sum) +
                              ", not its " + std::to_string(g.forfeits[s]) + " forfeits");
        if (r.timing) {
            const MoveTiming& t = (*r.timing)[s];
            const auto timeouts = r.forfeit_reasons[s].find("timeout");
            if (t.timeouts != (timeouts == r.forfeit_reasons[s].end() ? 0 : timeouts->second))
                throw RecordError("seat " + std::to_string(s + 1) + "'s move_times count other timeouts than its forfeit_reasons");
        }
    }
}

json timing_json(const MoveTiming& t) {
    return {{"moves", t.moves},
            {"wall_total_us", t.wall_total.count()},
            {"wall_max_us", t.wall_max.count()},
            {"cpu_moves", t.cpu_moves},
            {"cpu_total_us", t.cpu_total.count()},
            {"cpu_max_us", t.cpu_max.count()},
            {"timeouts", t.timeouts},
            {"near_timeouts", t.near_timeouts}};
}

// Counts within [0, moves] and times not negative, the total at least the maximum.
MoveTiming timing_from_json(const json& j) {
    if (!j.is_object()) throw RecordError("\"move_times\" is not an object for each seat");
    MoveTiming t;
    t.moves = static_cast<int>(integer(field(j, "moves"), "moves", 0, INT_MAX));
    auto count = [&](const char* key) { return static_cast<int>(integer(field(j, key), key, 0, t.moves)); };
    auto time = [&](const char* key) {
        return std::chrono::microseconds(integer(field(j, key), key, 0, std::numeric_limits<std::int64_t>::max()));
    };
    t.wall_total = time("wall_total_us");
    t.wall_max = time("wall_max_us");
    t.cpu_moves = count("cpu_moves");
    t.cpu_total = time("cpu_total_us");
    t.cpu_max = time("cpu_max_us");
    t.timeouts = count("timeouts");
    t.near_timeouts = count("near_timeouts");
    if (t.wall_max > t.wall_total || t.cpu_max > t.cpu_total)
        throw RecordError("\"move_times\" has a longest move longer than all moves together");
    return t;
}

}  // namespace

GameRecord make_record(const ScheduledGame& game, const GameResult& result, const GameStats& stats) {
    GameRecord record{game.inputs, game.key, result, {}, {}, std::array<MoveTiming, 2>{}, std::nullopt, {}};
    for (int seat = 1; seat <= 2; ++seat) {
        record.forfeit_reasons[seat - 1] = stats.seat(seat).forfeits_by_reason;
        record.last_forfeit[seat - 1] = stats.seat(seat).last_forfeit;
        (*record.timing)[seat - 1] =
            move_timing(stats.seat(seat), std::chrono::milliseconds(game.inputs.time_limit_ms));
    }
    return record;
}

// The record's JSON, one writer and one reader each, which nlohmann's conversions find here.
void to_json(json& j, const GameInputs& in) {
    j = {{"rules_version", in.rules_version},
         {"bots", in.bots},
         {"hashes", in.hashes},
         {"seed", in.seed},
         {"sandboxed", in.sandboxed},
         {"startup_limit_ms", in.startup_limit_ms},
         {"time_mode", in.cpu_time ? "cpu" : "wall"}};
    for (const auto& [key, member] : kIntInputs) j[key] = in.*member;
    if (in.clock_s > 0) j["clock_s"] = in.clock_s;
    if (in.time_bank_s > 0) j["time_bank_s"] = in.time_bank_s;
}

void from_json(const json& j, GameInputs& in) {
    in.rules_version = string_value(field(j, "rules_version"), "rules_version");
    in.bots = string_pair(j, "bots");
    in.hashes = string_pair(j, "hashes");
    for (const auto& [key, member] : kIntInputs) in.*member = int_field(j, key);
    const json& seed = field(j, "seed");
    if (!seed.is_number_unsigned()) throw RecordError("\"seed\" is " + json_text(seed) + ", not a non-negative integer");
    in.seed = seed.get<std::uint64_t>();
    const json& sandboxed = field(j, "sandboxed");
    if (!sandboxed.is_boolean()) throw RecordError("\"sandboxed\" is " + json_text(sandboxed) + ", not true or false");
    in.sandboxed = sandboxed.get<bool>();
    // Absent from records stored before they existed: the defaults they were played with.
    if (j.contains("startup_limit_ms")) in.startup_limit_ms = int_field(j, "startup_limit_ms");
    if (j.contains("time_mode")) in.cpu_time = string_value(j["time_mode"], "time_mode") == "cpu";
    // Written only when there is one: none is 0, and a 0 or less written is refused.
    in.clock_s = j.contains("clock_s") ? static_cast<int>(integer(j["clock_s"], "clock_s", 1, INT_MAX)) : 0;
    in.time_bank_s = j.contains("time_bank_s") ? static_cast<int>(integer(j["time_bank_s"], "time_bank_s", 1, INT_MAX)) : 0;
}

// The result's fields sit at the top level beside the key and the inputs.
void to_json(json& j, const GameRecord& r) {
    j = r.result;
    j["key"] = r.key;
    j["inputs"] = static_cast<const GameInputs&>(r);
    j["forfeit_reasons"] = r.forfeit_reasons;
    j["last_forfeit"] = r.last_forfeit;
    if (r.timing) j["move_times"] = {timing_json((*r.timing)[0]), timing_json((*r.timing)[1])};
    if (r.when) {
        j["started"] = r.when->started;
        j["duration_ms"] = r.when->duration.count();
    }
    if (!r.commits[0].empty() || !r.commits[1].empty())
        for (const std::string& commit : r.commits) j["commits"].push_back(commit.empty() ? json(nullptr) : json(commit));
}

void from_json(const json& j, GameRecord& r) {
    if (!j.is_object()) throw RecordError("it is not a JSON object");
    if (!j.contains("inputs")) throw RecordError("it names no inputs (a record from an older runner)");
    static_cast<GameInputs&>(r) = field(j, "inputs").get<GameInputs>();
    r.key = string_value(field(j, "key"), "key");
    r.result = j.get<GameResult>();
    const json& reasons = seat_pair(j, "forfeit_reasons");
    for (int s = 0; s < 2; ++s) {
        if (!reasons[s].is_object()) throw RecordError("\"forfeit_reasons\" is not an object for each seat");
        r.forfeit_reasons[s].clear();
        for (const auto& [why, n] : reasons[s].items()) {
            if (!forfeit_kind_from_name(why)) throw RecordError("\"forfeit_reasons\" names an unknown forfeit \"" + why + "\"");
            r.forfeit_reasons[s][why] = static_cast<int>(integer(n, "forfeit_reasons", INT_MIN, INT_MAX));
        }
    }
    r.last_forfeit = string_pair(j, "last_forfeit");
    r.timing.reset();
    if (j.contains("move_times")) {
        const json& times = seat_pair(j, "move_times");
        r.timing = std::array<MoveTiming, 2>{timing_from_json(times[0]), timing_from_json(times[1])};
    }
    // Optional, as move_times: records stored before it was kept are still read. "started" as
    // utc_timestamp() writes it, and a duration of at most a year: the page and the nightly's JSON
    // show both as they are.
    r.when.reset();
    if (j.contains("started") || j.contains("duration_ms")) {
        r.when = GameWhen{string_value(field(j, "started"), "started")};
        static const std::regex timestamp(R"(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z)");
        if (!std::regex_match(r.when->started, timestamp))
            throw RecordError("\"started\" is not a UTC time such as 2026-11-27T03:17:02Z");
        constexpr std::int64_t kYearMs = 366LL * 24 * 3600 * 1000;
        r.when->duration = std::chrono::milliseconds(integer(field(j, "duration_ms"), "duration_ms", 0, kYearMs));
    }
    // Only a game of a bot from a git repository has them; null for the other seat's.
    r.commits = {};
    if (j.contains("commits")) {
        const json& commits = seat_pair(j, "commits");
        for (int s = 0; s < 2; ++s) {
            if (commits[s].is_null()) continue;
            const std::string c = string_value(commits[s], "commits");
            // A commit's id is hex: nothing else a page would show.
            if (c.size() < 7 || c.size() > 64 || c.find_first_not_of("0123456789abcdef") != std::string::npos)
                throw RecordError("\"commits\" holds " + json_text(commits[s]) + ", not a commit's id");
            r.commits[s] = c;
        }
    }
}

std::string record_text(const GameRecord& r) { return json_text(json(r), 2) + "\n"; }

GameRecord read_record(std::string_view text, const ScheduledGame& game) {
    json j;
    try {
        j = json::parse(text);
    } catch (const json::exception& e) {
        throw RecordError(std::string("invalid JSON: ") + e.what());
    }
    GameRecord r = j.get<GameRecord>();
    // The inputs it differs in, as records name them. The JSON holds every field, each as it is
    // or none (a clock or bank of 0, which reading refuses).
    const json stored = static_cast<const GameInputs&>(r), scheduled = game.inputs;
    json keys = stored;
    keys.update(scheduled);
    std::string d;
    for (const auto& [key, _] : keys.items())
        if (stored.value(key, json()) != scheduled.value(key, json())) d += (d.empty() ? "" : ", ") + key;
    if (!d.empty()) throw RecordError("it was played with other inputs than the scheduled game's (" + d + " differ)");
    if (r.key != game.key) throw RecordError("its key is \"" + r.key + "\", not the scheduled game's");
    check_result(r, game.inputs);
    return r;
}

}  // namespace gol::runner
