#include "runner/league/tournament.hpp"

#include "runner/bots/repository_bot.hpp"
#include "runner/game/game_loop.hpp"
#include "runner/game/json_fields.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <sstream>

namespace gol::runner {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// A folder named relative to the tournament file.
std::optional<fs::path> folder_field(const JsonObject& o, const char* key, const fs::path& file) {
    const json* dir = o.find(key);
    if (!dir) return std::nullopt;
    if (!dir->is_string() || dir->get<std::string>().empty()) o.wrong(key, "a folder path (relative to the file)");
    return (file.parent_path() / dir->get<std::string>()).lexically_normal();
}

// "repositories": [{"name": ..., "url": ..., "branch": ...}], each URL, branch and name as a fetch
// accepts them (file:// too: whether it is fetched is `runner import`'s flag), no name twice.
std::optional<std::vector<TournamentRepository>> repositories_field(const JsonObject& o) {
    const json* list = o.find("repositories");
    if (!list) return std::nullopt;
    if (!list->is_array()) o.wrong("repositories", "a list of {\"name\": ..., \"url\": ..., \"branch\": ...}");
    std::vector<TournamentRepository> repositories;
    for (const json& r : *list) {
        const std::string at = "\"repositories\"[" + std::to_string(repositories.size()) + "]";
        if (!r.is_object()) throw is_not(at, r, "an object {\"name\": ..., \"url\": ..., \"branch\": ...}");
        const JsonObject item(r, {"name", "url", "branch"}, at + ": ");
        TournamentRepository repo{item.string("name").value_or(""), item.string("url").value_or(""),
                                  item.string("branch").value_or("main")};
        if (auto why = refused_git_url(repo.url, true)) throw RecordError(at + ": \"url\": " + *why);
        if (auto why = refused_branch(repo.branch)) throw RecordError(at + ": \"branch\": " + *why);
        if (auto why = refused_bot_name(repo.name)) throw RecordError(at + ": \"name\": " + *why);
        if (std::any_of(repositories.begin(), repositories.end(),
                        [&](const TournamentRepository& other) { return other.name == repo.name; }))
            throw RecordError(at + ": \"name\": " + repo.name + " is listed twice");
        repositories.push_back(std::move(repo));
    }
    return repositories;
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

Tournament parse_tournament(std::string_view text, const fs::path& file) try {
    const json j = parse_json(text);
    const JsonObject o(j, {"bots", "width", "height", "generations", "time_limit_ms", "memory_limit_mb", "cpu_limit_s",
                           "startup_limit_ms", "time_mode", "time_bank_s", "games_per_pair", "scoring", "seed",
                           "interpreters", "jobs", "sandbox", "cold", "until_separated", "format", "cache",
                           "repositories"});
    Tournament t;
    t.file = file;
    t.bots = folder_field(o, "bots", file);
    t.cache = folder_field(o, "cache", file);
    t.width = o.integer("width", 1, 4096);
    t.height = o.integer("height", 1, 4096);
    t.generations = o.integer("generations", 1, GameConfig::max_generations);
    t.time_limit_ms = o.integer("time_limit_ms", 1, 600'000);
    t.memory_limit_mb = o.integer("memory_limit_mb", 16, 1 << 20);
    t.cpu_limit_s = o.integer("cpu_limit_s", 1, 3600);
    t.startup_limit_ms = o.integer("startup_limit_ms", 0, 600'000);
    t.time_bank_s = o.integer("time_bank_s", 0, GameConfig::max_time_bank_s);  // 0: none
    if (const json* list = o.find("interpreters")) {
        auto folder = [](const json& v) { return v.is_string() && !v.get<std::string>().empty(); };
        if (!list->is_array() || !std::all_of(list->begin(), list->end(), folder))
            o.wrong("interpreters", "a list of folders");
        t.interpreters.emplace();
        for (const json& dir : *list)
            t.interpreters->push_back(fs::absolute(file.parent_path() / dir.get<std::string>()).lexically_normal());
    }
    t.time_mode = o.choice("time_mode", {"wall", "cpu"});
    t.games_per_pair = o.integer("games_per_pair", 2, 1000);
    if (t.games_per_pair && *t.games_per_pair % 2 != 0)
        o.wrong("games_per_pair", "even, so each bot plays each seat equally often");
    t.scoring = o.choice("scoring", {"wins", "points", "half", "kd"});
    t.format = o.choice("format", {"text", "markdown", "json", "csv", "html"});
    t.jobs = o.integer("jobs", 1, 256);
    t.until_separated = o.integer("until_separated", 2, 1'000'000);
    t.sandbox = o.boolean("sandbox");
    t.cold = o.boolean("cold");
    t.repositories = repositories_field(o);
    t.seed = o.unsigned_integer("seed");
    return t;
} catch (const RecordError& e) {
    throw TournamentError(file.string() + ": " + e.what());
}

}  // namespace gol::runner
