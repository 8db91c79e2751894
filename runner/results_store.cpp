#include "runner/results_store.hpp"
#include "runner/json_text.hpp"

#include "runner/atomic_file.hpp"

#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <sys/file.h>

#include <cerrno>
#include <cstring>
#include <fstream>

namespace gol::runner {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

json record_json(const GameRecord& r) {
    const GameResult& g = r.result;
    return {{"key", r.key},
            {"bots", r.bots},
            {"hashes", r.hashes},
            {"game_index", r.game_index},
            {"seed", r.seed},
            {"winner", g.verdict.winner_seat == 0 ? json(nullptr) : json(g.verdict.winner_seat)},
            {"reason", name(g.verdict.reason)},
            {"generations", g.generations},
            {"cells", g.cells},
            {"forfeits", g.forfeits},
            {"forfeit_reasons", r.forfeit_reasons},
            {"last_forfeit", r.last_forfeit}};
}

GameRecord record_from(const json& j) {
    GameRecord r;
    r.key = j.at("key").get<std::string>();
    r.bots = j.at("bots").get<std::array<std::string, 2>>();
    r.hashes = j.at("hashes").get<std::array<std::string, 2>>();
    r.game_index = j.at("game_index").get<int>();
    r.seed = j.at("seed").get<std::uint64_t>();
    r.result.verdict.winner_seat = j.at("winner").is_null() ? 0 : j.at("winner").get<int>();
    r.result.verdict.reason = j.at("reason").get<std::string>() == "extinction" ? EndReason::extinction
                                                                               : EndReason::generations;
    r.result.generations = j.at("generations").get<int>();
    r.result.cells = j.at("cells").get<std::array<std::int64_t, 2>>();
    r.result.forfeits = j.at("forfeits").get<std::array<int, 2>>();
    // Records written before these fields existed have none.
    if (j.contains("forfeit_reasons"))
        r.forfeit_reasons = j.at("forfeit_reasons").get<std::array<std::map<std::string, int>, 2>>();
    if (j.contains("last_forfeit")) r.last_forfeit = j.at("last_forfeit").get<std::array<std::string, 2>>();
    return r;
}

}  // namespace

ResultsStore::ResultsStore(fs::path dir) : dir_(std::move(dir)) {
    std::error_code ec;
    fs::create_directories(dir_ / "games", ec);
    if (ec) throw StoreError("results directory " + dir_.string() + ": " + ec.message());
    lock_.reset(::open((dir_ / ".lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644));
    if (!lock_) throw StoreError("results directory " + dir_.string() + ": " + std::strerror(errno));
    if (::flock(lock_.get(), LOCK_EX | LOCK_NB) != 0)
        throw StoreError("results directory " + dir_.string() + " is in use by another league run");
}

std::optional<GameRecord> ResultsStore::load(const std::string& key) const { return load_record(dir_, key); }

fs::path ResultsStore::replay_path(const std::string& key) const { return dir_ / "replays" / (key + ".jsonl"); }
fs::path ResultsStore::viewer_path(const std::string& key) const { return dir_ / "viewers" / (key + ".html"); }

void ResultsStore::save(const GameRecord& record, const std::string& replay, const std::string& log) {
    write_file_atomically(replay_path(record.key), replay);
    write_file_atomically(dir_ / "logs" / (record.key + ".log"), log);
    write_file_atomically(dir_ / "games" / (record.key + ".json"), json_text(record_json(record), 2) + "\n");
}

void ResultsStore::save_index(const LeagueIndex& index) {
    json excluded = json::array();
    for (const ExcludedBot& e : index.excluded) excluded.push_back({{"bot", e.bot}, {"reason", e.reason}});
    const LeagueSettings& s = index.settings;
    json j = {{"settings",
               {{"width", s.config.width},
                {"height", s.config.height},
                {"generations", s.config.generations},
                {"time_limit_ms", s.time_limit_ms},
                {"memory_limit_mb", s.memory_limit_mb},
                {"cpu_limit_s", s.cpu_limit_s},
                {"games_per_pair", s.games_per_pair},
                {"seed", s.seed},
                {"scoring", index.scoring}}},
              {"bots", index.bots},
              {"games", index.keys},
              {"excluded", excluded},
              {"paths", index.paths}};
    write_file_atomically(dir_ / "league.json", json_text(j, 2) + "\n");
}

LeagueIndex load_index(const fs::path& dir) {
    const fs::path file = dir / "league.json";
    std::ifstream in(file);
    if (!in) throw StoreError(file.string() + ": cannot be read (no league has run with these results yet?)");
    try {
        json j = json::parse(in);
        LeagueIndex index;
        const json& s = j.at("settings");
        index.settings.config.width = s.at("width").get<int>();
        index.settings.config.height = s.at("height").get<int>();
        index.settings.config.generations = s.at("generations").get<int>();
        index.settings.time_limit_ms = s.at("time_limit_ms").get<int>();
        index.settings.memory_limit_mb = s.value("memory_limit_mb", 1024);
        index.settings.cpu_limit_s = s.value("cpu_limit_s", 0);
        index.settings.games_per_pair = s.at("games_per_pair").get<int>();
        index.settings.seed = s.at("seed").get<std::uint64_t>();
        index.scoring = s.at("scoring").get<std::string>();
        index.bots = j.at("bots").get<std::vector<std::string>>();
        index.keys = j.at("games").get<std::vector<std::string>>();
        for (const json& e : j.at("excluded"))
            index.excluded.push_back({e.at("bot").get<std::string>(), e.at("reason").get<std::string>()});
        // Indexes written before bots' paths were kept have none.
        index.paths = j.value("paths", std::map<std::string, std::string>{});
        return index;
    } catch (const json::exception& e) {
        throw StoreError(file.string() + ": " + e.what());
    }
}

std::optional<GameRecord> load_record(const fs::path& dir, const std::string& key) {
    const fs::path file = dir / "games" / (key + ".json");
    std::ifstream in(file);
    if (!in) return std::nullopt;
    try {
        return record_from(json::parse(in));
    } catch (const json::exception& e) {
        throw StoreError(file.string() + ": " + e.what());
    }
}

}  // namespace gol::runner
