#include "runner/league/results_store.hpp"
#include "runner/text/json_text.hpp"

#include "runner/sys/atomic_file.hpp"
#include "runner/sys/small_file.hpp"

#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstring>
#include <random>
#include <utility>

namespace gol::runner {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr std::size_t kRecordCap = std::size_t{1} << 20;
constexpr std::size_t kIndexCap = std::size_t{256} << 20;

// A store file's bytes, or none when it does not exist; its errors name it `name`. Read as a
// small file (small_file.hpp): a planted link to /proc or a fifo must not hang the runner.
std::optional<std::string> read_store_file(const fs::path& file, std::size_t cap, const std::string& name) {
    std::error_code ignored;  // a file that cannot be looked at is read, to say why
    if (fs::symlink_status(file, ignored).type() == fs::file_type::not_found) return std::nullopt;
    try {
        return read_small_file(file, cap);
    } catch (const SmallFileError& e) {
        throw StoreError(name + ": it " + e.what());
    }
}

// An integer setting, read as strictly as a record's fields (json_fields.hpp).
int int_setting(const json& s, const char* key) { return static_cast<int>(integer(field(s, key), key, INT_MIN, INT_MAX)); }

// The integer settings every index has, by their keys: one list for the writer and the reader.
std::array<std::pair<const char*, int*>, 7> int_settings(LeagueSettings& s) {
    return {{{"width", &s.config.width}, {"height", &s.config.height}, {"generations", &s.config.generations},
             {"time_limit_ms", &s.time_limit_ms}, {"memory_limit_mb", &s.memory_limit_mb},
             {"cpu_limit_s", &s.cpu_limit_s}, {"games_per_pair", &s.games_per_pair}}};
}

// The record stored for `game`, or none. Throws StoreError when one is stored but does not hold
// for the game, or cannot be read.
std::optional<GameRecord> load_record(const fs::path& dir, const ScheduledGame& game) {
    // Named as the store's layout names it: the messages go to the host's log.
    const std::string name = "games/" + game.key + ".json";
    const std::optional<std::string> text = read_store_file(dir / name, kRecordCap, name);
    if (!text) return std::nullopt;
    try {
        return read_record(*text, game);
    } catch (const std::runtime_error& e) {  // RecordError
        throw StoreError(name + ": " + e.what());
    }
}

// The rounds appended to the index read from league.json (`id` its id), added to it: each
// complete line of the rounds file when its first line names the index. A last line without its
// newline is one a crash cut short, never acknowledged, and is not read.
void add_rounds(const fs::path& dir, const std::string& id, StoredIndex& index) {
    const fs::path file = rounds_file(dir);
    const std::optional<std::string> text = read_store_file(file, kIndexCap, file.string());
    if (!text) return;
    std::size_t at = 0, line = 0;
    for (std::size_t end; (end = text->find('\n', at)) != std::string::npos; at = end + 1) {
        ++line;
        try {
            const json j = json::parse(std::string_view(*text).substr(at, end - at));
            if (line == 1) {
                if (j.at("index") != id) return;  // the rounds of an index written before this one
                continue;
            }
            for (const ScheduledBot& b : j.at("bots").get<std::vector<ScheduledBot>>()) index.bots.push_back(b);
            index.added.push_back(j.at("pair").get<AddedPair>());
            for (const std::string& key : j.at("games").get<std::array<std::string, 2>>()) index.keys.push_back(key);
        } catch (const json::exception& e) {
            throw StoreError(file.string() + ": line " + std::to_string(line) + ": " + e.what());
        }
    }
}

// Removes `file`: true when it was there. Throws StoreError.
bool remove_file(const fs::path& file) {
    std::error_code ec;
    if (fs::remove(file, ec)) return true;
    if (ec) throw StoreError(file.string() + ": cannot be removed: " + ec.message());
    return false;
}

}  // namespace

ResultsStore::ResultsStore(fs::path dir, StoreUse use) : dir_(std::move(dir)) {
    std::error_code ec;
    fs::create_directories(dir_ / "games", ec);
    if (ec) throw StoreError("results directory " + dir_.string() + ": " + ec.message());
    lock_.reset(::open((dir_ / ".lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644));
    if (!lock_) throw StoreError("results directory " + dir_.string() + ": " + std::strerror(errno));
    const bool league = use == StoreUse::league;
    if (::flock(lock_.get(), (league ? LOCK_EX : LOCK_SH) | LOCK_NB) != 0)
        throw StoreError("results directory " + dir_.string() +
                         (league ? " is in use by another league run (or by games played with --game)"
                                 : " is in use by a league run"));
}

bool league_playing_into(const fs::path& dir) {
    const UniqueFd fd(::open((dir / ".lock").c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
    return fd && ::flock(fd.get(), LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK;
}

fs::path ResultsStore::replay_path(const std::string& key) const { return dir_ / "replays" / (key + ".jsonl"); }
fs::path ResultsStore::viewer_path(const std::string& key) const { return dir_ / "viewers" / (key + ".html"); }

fs::path ResultsStore::record_path(const std::string& key) const { return dir_ / "games" / (key + ".json"); }
fs::path ResultsStore::log_path(const std::string& key) const { return dir_ / "logs" / (key + ".log"); }

void ResultsStore::save(const GameRecord& record, const std::string& replay, const std::string& log) {
    write_file_atomically(replay_path(record.key), replay);
    write_file_atomically(log_path(record.key), log);
    write_file_atomically(record_path(record.key), record_text(record));
}

fs::path ResultsStore::repeat_path(const std::string& hash) const {
    // A content hash is hex; anything else must not become a path.
    if (hash.empty() || hash.find_first_not_of("0123456789abcdef") != std::string::npos)
        throw StoreError("not a content hash: " + hash);
    return dir_ / "repeats" / (hash + ".json");
}

std::optional<RepeatCheck> ResultsStore::load_repeat(const std::string& hash) const {
    try {
        const std::optional<std::string> text = read_store_file(repeat_path(hash), kRecordCap, hash);
        if (!text) return std::nullopt;
        const json j = json::parse(*text);
        if (j.at("format") != "gol-repeat-check" || j.at("version") != 1 || j.at("hash") != hash) return std::nullopt;
        return j.get<RepeatCheck>();
    } catch (const std::exception&) {  // StoreError, json's
        return std::nullopt;
    }
}

void ResultsStore::save_repeat(const RepeatCheck& c) {
    json j = c;
    j["format"] = "gol-repeat-check";
    j["version"] = 1;
    write_file_atomically(repeat_path(c.hash), json_text(j, 2) + "\n");
}

bool ResultsStore::forget_repeat(const std::string& hash) { return remove_file(repeat_path(hash)); }

std::vector<fs::path> ResultsStore::forget(const std::string& key) {
    std::vector<fs::path> removed;
    for (const fs::path& file : {record_path(key), replay_path(key), log_path(key), viewer_path(key)})
        if (remove_file(file)) removed.push_back(file);
    return removed;
}

std::vector<ScheduledGame> expected_games(const LeagueIndex& index) {
    std::vector<ScheduledGame> games = schedule_league(index.bots, index.settings);
    for (ScheduledGame& g : schedule_added(index.bots, index.settings, index.added)) games.push_back(std::move(g));
    return games;
}

std::vector<std::string> keys_of(std::span<const ScheduledGame> games) {
    std::vector<std::string> keys;
    for (const ScheduledGame& g : games) keys.push_back(g.key);
    return keys;
}

fs::path index_file(const fs::path& dir) { return dir / "league.json"; }
fs::path rounds_file(const fs::path& dir) { return dir / "league-rounds.jsonl"; }

std::vector<ScheduledGame> ResultsStore::save_index(const LeagueIndex& index) {
    std::vector<ScheduledGame> games = expected_games(index);
    // A new id, which its rounds file names: a rounds file left by an index written before (a
    // crash between the two writes) is not read with this one.
    std::random_device random;
    char id[17];
    std::snprintf(id, sizeof id, "%08x%08x", random(), random());
    LeagueSettings s = index.settings;
    json j = {{"settings",
               {{"seed", s.seed},
                {"sandboxed", s.sandboxed},
                {"startup_limit_ms", s.startup_limit_ms},
                {"cpu_time", s.cpu_time},
                {"scoring", index.scoring}}},
              {"bots", index.bots},
              {"games", keys_of(games)},
              {"excluded", index.excluded},
              {"paths", index.paths},
              {"id", id}};
    for (const auto& [key, value] : int_settings(s)) j["settings"][key] = *value;
    if (!s.gauntlet.empty()) j["settings"]["gauntlet"] = s.gauntlet;
    if (s.config.clock_s > 0) j["settings"]["clock_s"] = s.config.clock_s;
    if (s.config.time_bank_s > 0) j["settings"]["time_bank_s"] = s.config.time_bank_s;
    if (!index.added.empty()) j["added"] = index.added;
    if (!index.repositories.empty()) j["repositories"] = index.repositories;
    write_file_atomically(index_file(dir_), json_text(j, 2) + "\n");
    index_id_ = id;
    // The rounds of the index before are in this one or gone; their file, which names that index,
    // would not be read with this one, and goes.
    rounds_.reset();
    std::error_code ignored;
    fs::remove(rounds_file(dir_), ignored);
    return games;
}

void ResultsStore::append_index(const IndexRound& round) {
    const fs::path file = rounds_file(dir_);
    if (index_id_.empty()) throw StoreError(file.string() + ": no index written whole to add a round to");
    const std::string line = json_text({{"bots", round.bots}, {"pair", round.pair}, {"games", round.keys}}) + "\n";
    if (!rounds_) {
        try {
            write_file_atomically(file, json_text({{"index", index_id_}}) + "\n");
        } catch (const std::runtime_error& e) {
            throw StoreError(e.what());
        }
        rounds_.reset(::open(file.c_str(), O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC));
        if (!rounds_) throw StoreError(file.string() + ": " + std::strerror(errno));
    }
    struct stat st {};
    if (::fstat(rounds_.get(), &st) != 0) throw StoreError(file.string() + ": " + std::strerror(errno));
    // One write of the whole line, durable before the round's games begin.
    const ssize_t n = ::write(rounds_.get(), line.data(), line.size());
    const bool written = n == static_cast<ssize_t>(line.size());
    if (!written || ::fdatasync(rounds_.get()) != 0) {
        const int why = written || n < 0 ? errno : ENOSPC;
        // A line written in part is taken back, so that no round follows a broken line; when it
        // cannot be, no round is appended until the index is written whole again.
        if (::ftruncate(rounds_.get(), st.st_size) != 0) {
            rounds_.reset();
            index_id_.clear();
        }
        throw StoreError(file.string() + ": cannot append a round: " + std::strerror(why));
    }
}

StoredIndex load_index(const fs::path& dir) {
    std::optional<StoredIndex> index = find_index(dir);
    if (!index)
        throw StoreError(index_file(dir).string() + ": cannot be read (no league has run with these results yet?)");
    return std::move(*index);
}

std::optional<StoredIndex> find_index(const fs::path& dir) {
    const fs::path file = index_file(dir);
    const std::optional<std::string> text = read_store_file(file, kIndexCap, file.string());
    if (!text) return std::nullopt;
    StoredIndex index;
    std::string id;
    try {
        json j = json::parse(*text);
        const json& s = j.at("settings");
        if (!s.contains("sandboxed") || !j.at("bots").is_array() || (!j["bots"].empty() && !j["bots"][0].is_object()))
            throw StoreError("written by an older runner; run the league again to replay its games under the "
                             "new keys");
        for (const auto& [key, value] : int_settings(index.settings)) *value = int_setting(s, key);
        // Only an arena's with --clock has one.
        index.settings.config.clock_s = s.contains("clock_s") ? int_setting(s, "clock_s") : 0;
        // Only a league's with a time bank has one.
        index.settings.config.time_bank_s = s.contains("time_bank_s") ? int_setting(s, "time_bank_s") : 0;
        if (!s.at("seed").is_number_unsigned()) throw StoreError("\"seed\" is not a non-negative integer");
        index.settings.seed = s.at("seed").get<std::uint64_t>();
        index.settings.sandboxed = s.at("sandboxed").get<bool>();
        // Both are among a game's inputs (league_schedule.hpp); indexes written before them had
        // the defaults, whose keys leave them out.
        index.settings.startup_limit_ms = s.contains("startup_limit_ms") ? int_setting(s, "startup_limit_ms")
                                                                         : LeagueSettings{}.startup_limit_ms;
        index.settings.cpu_time = s.value("cpu_time", false);
        index.scoring = s.at("scoring").get<std::string>();
        // A full league's index has none.
        index.settings.gauntlet = s.value("gauntlet", std::string{});
        index.bots = j.at("bots").get<std::vector<ScheduledBot>>();
        index.keys = j.at("games").get<std::vector<std::string>>();
        // A league without --until-separated has none.
        index.added = j.value("added", std::vector<AddedPair>{});
        index.excluded = j.at("excluded").get<std::vector<ExcludedBot>>();
        // Indexes written before bots' paths were kept have none.
        index.paths = j.value("paths", std::map<std::string, std::string>{});
        // Only a league with bots from git repositories has them.
        index.repositories = j.value("repositories", std::vector<RepositoryBot>{});
        // Indexes written before rounds were appended have no id, and no rounds.
        id = j.value("id", std::string{});
    } catch (const std::exception& e) {  // json's, StoreError, RecordError
        throw StoreError(file.string() + ": " + e.what());
    }
    if (!id.empty()) add_rounds(dir, id, index);
    return index;
}

std::vector<std::optional<GameRecord>> load_stored(const fs::path& dir, std::span<const ScheduledGame> games,
                                                   const std::function<void(const StoreError&)>& bad) {
    std::vector<std::optional<GameRecord>> stored;
    for (const ScheduledGame& g : games) {
        try {
            stored.push_back(load_record(dir, g));
        } catch (const StoreError& e) {
            bad(e);
            stored.emplace_back();
        }
    }
    return stored;
}

std::vector<GameRecord> table_records(const fs::path& dir, std::span<const ScheduledGame> games, std::FILE* log) {
    const auto bad = [log](const StoreError& e) { std::fprintf(log, "table: %s; left out of the table\n", e.what()); };
    std::vector<GameRecord> records;
    for (std::optional<GameRecord>& r : load_stored(dir, games, bad))
        if (r) records.push_back(std::move(*r));
    return records;
}

}  // namespace gol::runner
