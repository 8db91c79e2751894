#include "runner/league/tournament.hpp"

#include "runner/game/game_loop.hpp"

#include <nlohmann/json.hpp>

#include <array>
#include <fstream>
#include <sstream>

namespace gol::runner {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr std::array<std::string_view, 13> kKeys = {"bots",          "width",           "height",
                                                    "generations",   "time_limit_ms",   "memory_limit_mb",
                                                    "cpu_limit_s",   "startup_limit_ms", "time_mode",
                                                    "games_per_pair",  "scoring",        "seed",
                                                    "interpreters"};

std::optional<int> int_field(const json& j, const char* key, long lo, long hi, const fs::path& file) {
    if (!j.contains(key)) return std::nullopt;
    const json& v = j[key];
    if (!v.is_number_integer() || v.get<long>() < lo || v.get<long>() > hi)
        throw TournamentError(file.string() + ": \"" + key + "\" must be an integer from " + std::to_string(lo) +
                              " to " + std::to_string(hi));
    return v.get<int>();
}

}  // namespace

fs::path Tournament::results_dir() const { return file.parent_path() / file.stem(); }

Tournament read_tournament(const fs::path& file) {
    std::ifstream in(file);
    if (!in) throw TournamentError(file.string() + ": cannot be read");
    std::stringstream text;
    text << in.rdbuf();
    return parse_tournament(text.str(), file);
}

Tournament parse_tournament(std::string_view text, const fs::path& file) {
    json j;
    try {
        j = json::parse(text);
    } catch (const json::exception& e) {  // parse errors, and numbers too large to hold
        throw TournamentError(file.string() + ": invalid JSON: " + e.what());
    }
    if (!j.is_object()) throw TournamentError(file.string() + ": must be a JSON object");
    for (const auto& [key, value] : j.items())
        if (std::find(kKeys.begin(), kKeys.end(), key) == kKeys.end())
            throw TournamentError(file.string() + ": unknown key \"" + key +
                                  "\" (allowed: bots, width, height, generations, time_limit_ms, memory_limit_mb, "
                                  "cpu_limit_s, startup_limit_ms, time_mode, games_per_pair, scoring, seed, "
                                  "interpreters)");
    Tournament t;
    t.file = file;
    if (j.contains("bots")) {
        if (!j["bots"].is_string() || j["bots"].get<std::string>().empty())
            throw TournamentError(file.string() + ": \"bots\" must be a folder path (relative to the file)");
        t.bots = (file.parent_path() / j["bots"].get<std::string>()).lexically_normal();
    }
    t.width = int_field(j, "width", 1, 4096, file);
    t.height = int_field(j, "height", 1, 4096, file);
    t.generations = int_field(j, "generations", 1, GameConfig::max_generations, file);
    t.time_limit_ms = int_field(j, "time_limit_ms", 1, 600'000, file);
    t.memory_limit_mb = int_field(j, "memory_limit_mb", 16, 1 << 20, file);
    t.cpu_limit_s = int_field(j, "cpu_limit_s", 1, 3600, file);
    t.startup_limit_ms = int_field(j, "startup_limit_ms", 0, 600'000, file);
    if (j.contains("interpreters")) {
        const json& list = j["interpreters"];
        auto folder = [](const json& v) { return v.is_string() && !v.get<std::string>().empty(); };
        if (!list.is_array() || !std::all_of(list.begin(), list.end(), folder))
            throw TournamentError(file.string() + ": \"interpreters\" must be a list of folders");
        t.interpreters.emplace();
        for (const json& dir : list)
            t.interpreters->push_back(fs::absolute(file.parent_path() / dir.get<std::string>()).lexically_normal());
    }
    if (j.contains("time_mode")) {
        const json& m = j["time_mode"];
        const std::string v = m.is_string() ? m.get<std::string>() : "";
        if (v != "wall" && v != "cpu") throw TournamentError(file.string() + ": \"time_mode\" must be \"wall\" or \"cpu\"");
        t.time_mode = v;
    }
    t.games_per_pair = int_field(j, "games_per_pair", 2, 1000, file);
    if (t.games_per_pair && *t.games_per_pair % 2 != 0)
        throw TournamentError(file.string() + ": \"games_per_pair\" must be even, so each bot plays each seat equally often");
    if (j.contains("scoring")) {
        const json& s = j["scoring"];
        std::string v = s.is_string() ? s.get<std::string>() : "";
        if (v != "wins" && v != "points" && v != "half" && v != "kd")
            throw TournamentError(file.string() + ": \"scoring\" must be \"wins\", \"points\", \"half\" or \"kd\"");
        t.scoring = v;
    }
    if (j.contains("seed")) {
        if (!j["seed"].is_number_unsigned())
            throw TournamentError(file.string() + ": \"seed\" must be a non-negative integer");
        t.seed = j["seed"].get<std::uint64_t>();
    }
    return t;
}

}  // namespace gol::runner
