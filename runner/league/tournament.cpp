#include "runner/league/tournament.hpp"

#include "runner/bots/repository_bot.hpp"
#include "runner/game/game_loop.hpp"
#include "runner/text/terminal_text.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <fstream>
#include <initializer_list>
#include <sstream>

namespace gol::runner {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr std::array<std::string_view, 21> kKeys = {
    "bots",           "width",     "height",      "generations",    "time_limit_ms", "memory_limit_mb", "cpu_limit_s",
    "startup_limit_ms", "time_mode", "time_bank_s", "games_per_pair", "scoring",       "seed",            "interpreters",
    "jobs",           "sandbox",   "cold",        "until_separated", "format",        "cache",           "repositories"};

std::string allowed_keys() {
    std::string list;
    for (std::string_view key : kKeys) list += (list.empty() ? "" : ", ") + std::string(key);
    return list;
}

std::optional<bool> bool_field(const json& j, const char* key, const fs::path& file) {
    if (!j.contains(key)) return std::nullopt;
    if (!j[key].is_boolean()) throw TournamentError(file.string() + ": \"" + key + "\" must be true or false");
    return j[key].get<bool>();
}

// One of `choices`, or nullopt when the key is absent.
std::optional<std::string> choice_field(const json& j, const char* key, std::initializer_list<std::string_view> choices,
                                        const fs::path& file) {
    if (!j.contains(key)) return std::nullopt;
    const std::string v = j[key].is_string() ? j[key].get<std::string>() : "";
    if (std::find(choices.begin(), choices.end(), v) != choices.end()) return v;
    std::string list;
    for (std::string_view c : choices) list += (list.empty() ? "\"" : ", \"") + std::string(c) + "\"";
    throw TournamentError(file.string() + ": \"" + key + "\" must be one of " + list);
}

// A folder named relative to the tournament file.
std::optional<fs::path> folder_field(const json& j, const char* key, const fs::path& file) {
    if (!j.contains(key)) return std::nullopt;
    if (!j[key].is_string() || j[key].get<std::string>().empty())
        throw TournamentError(file.string() + ": \"" + key + "\" must be a folder path (relative to the file)");
    return (file.parent_path() / j[key].get<std::string>()).lexically_normal();
}

std::optional<int> int_field(const json& j, const char* key, long lo, long hi, const fs::path& file) {
    if (!j.contains(key)) return std::nullopt;
    const json& v = j[key];
    if (!v.is_number_integer() || v.get<long>() < lo || v.get<long>() > hi)
        throw TournamentError(file.string() + ": \"" + key + "\" must be an integer from " + std::to_string(lo) +
                              " to " + std::to_string(hi));
    return v.get<int>();
}

// "repositories": [{"name": ..., "url": ..., "branch": ...}], each URL, branch and name as a fetch
// accepts them (file:// too: whether it is fetched is `runner import`'s flag), no name twice.
std::optional<std::vector<TournamentRepository>> repositories_field(const json& j, const fs::path& file) {
    if (!j.contains("repositories")) return std::nullopt;
    const std::string where = file.string() + ": \"repositories\"";
    if (!j["repositories"].is_array())
        throw TournamentError(where + " must be a list of {\"name\": ..., \"url\": ..., \"branch\": ...}");
    std::vector<TournamentRepository> list;
    for (const json& r : j["repositories"]) {
        const std::string at = where + "[" + std::to_string(list.size()) + "]";
        if (!r.is_object()) throw TournamentError(at + " must be an object {\"name\": ..., \"url\": ..., \"branch\": ...}");
        for (const auto& [key, value] : r.items())
            if (key != "name" && key != "url" && key != "branch")
                throw TournamentError(at + ": unknown key \"" + terminal_line(key) + "\" (allowed: name, url, branch)");
        auto text = [&](const char* key) -> std::string {
            if (!r.contains(key)) return "";
            if (!r[key].is_string()) throw TournamentError(at + ": \"" + key + "\" must be a string");
            return r[key].get<std::string>();
        };
        TournamentRepository repo{text("name"), text("url"), r.contains("branch") ? text("branch") : "main"};
        if (auto why = refused_git_url(repo.url, true)) throw TournamentError(at + ": \"url\": " + *why);
        if (auto why = refused_branch(repo.branch)) throw TournamentError(at + ": \"branch\": " + *why);
        if (auto why = refused_bot_name(repo.name)) throw TournamentError(at + ": \"name\": " + *why);
        if (std::any_of(list.begin(), list.end(), [&](const TournamentRepository& o) { return o.name == repo.name; }))
            throw TournamentError(at + ": \"name\": " + repo.name + " is listed twice");
        list.push_back(std::move(repo));
    }
    return list;
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
            throw TournamentError(file.string() + ": unknown key \"" + key + "\" (allowed: " + allowed_keys() + ")");
    Tournament t;
    t.file = file;
    t.bots = folder_field(j, "bots", file);
    t.cache = folder_field(j, "cache", file);
    t.width = int_field(j, "width", 1, 4096, file);
    t.height = int_field(j, "height", 1, 4096, file);
    t.generations = int_field(j, "generations", 1, GameConfig::max_generations, file);
    t.time_limit_ms = int_field(j, "time_limit_ms", 1, 600'000, file);
    t.memory_limit_mb = int_field(j, "memory_limit_mb", 16, 1 << 20, file);
    t.cpu_limit_s = int_field(j, "cpu_limit_s", 1, 3600, file);
    t.startup_limit_ms = int_field(j, "startup_limit_ms", 0, 600'000, file);
    t.time_bank_s = int_field(j, "time_bank_s", 0, GameConfig::max_time_bank_s, file);  // 0: none
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
    t.scoring = choice_field(j, "scoring", {"wins", "points", "half", "kd"}, file);
    t.format = choice_field(j, "format", {"text", "markdown", "json", "csv", "html"}, file);
    t.jobs = int_field(j, "jobs", 1, 256, file);
    t.until_separated = int_field(j, "until_separated", 2, 1'000'000, file);
    t.sandbox = bool_field(j, "sandbox", file);
    t.cold = bool_field(j, "cold", file);
    t.repositories = repositories_field(j, file);
    if (j.contains("seed")) {
        if (!j["seed"].is_number_unsigned())
            throw TournamentError(file.string() + ": \"seed\" must be a non-negative integer");
        t.seed = j["seed"].get<std::uint64_t>();
    }
    return t;
}

}  // namespace gol::runner
