// Results nobody can forge (issue 14): keys that cover everything deciding a game, and stored
// records checked against the game they are loaded for, end to end against the real runner.
// (Tables that cannot run code in a spreadsheet or hide whether the bots were sandboxed:
// report/tests/standings_tables_test.cpp.)
#include "runner/testing/runner_fixture.hpp"

#include "runner/league/league_schedule.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <set>

using namespace gol::runner;
using gol::runner::testing::contains;
using gol::runner::testing::read_text;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

std::set<std::string> keys_of(const std::vector<ScheduledGame>& games) {
    std::set<std::string> keys;
    for (const ScheduledGame& g : games) keys.insert(g.key);
    return keys;
}

// Three quick bots (block wins against the two passive ones, which draw), 6 games a league.
struct IntegrityFixture : testing::RunnerFixture {
    fs::path results = root.path() / "integrity-results";

    IntegrityFixture() {
        add_test_bots({"block.py", "idle.sh", "nap.sh"});
    }

    RunOutcome league_run(const std::vector<std::string>& extra = {}) {
        std::vector<std::string> args = {"league", bots.string(), "--results", results.string(), "--cache",
                                         cache.string(), "--width", "20", "--height", "20", "--generations", "20",
                                         "-j", "2", "--quiet", "--format", "json", "--no-sandbox"};
        args.insert(args.end(), extra.begin(), extra.end());
        RunOutcome r = runner(args);
        INFO("stderr: " << r.err);
        REQUIRE(r.kind == RunOutcome::Kind::exited);
        REQUIRE(r.exit_status == 0);
        return r;
    }

    json league_json() { return json::parse(read_text(results / "league.json")); }
    std::vector<std::string> keys() { return league_json()["games"].get<std::vector<std::string>>(); }
    fs::path record(const std::string& key) { return results / "games" / (key + ".json"); }

    void change_record(const std::string& key, const std::function<void(json&)>& change) {
        json j = json::parse(read_text(record(key)));
        change(j);
        std::ofstream(record(key), std::ios::trunc) << j.dump(2);
    }
};

}  // namespace

TEST_CASE("integrity: each setting that decides a game changes every key, and seats and names are length-safe") {
    const std::vector<ScheduledBot> bots = {{"a", "ha"}, {"b", "hb"}, {"c", "hc"}};
    LeagueSettings base;
    base.config = {20, 20, 50};
    const std::set<std::string> keys = keys_of(schedule_league(bots, base));
    REQUIRE(keys.size() == 6);
    for (const char* c : {"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"}) {
        CAPTURE(c);
        const std::string changed(c);
        LeagueSettings s = base;
        if (changed == "a") s.sandboxed = false;
        if (changed == "b") s.memory_limit_mb = 512;
        if (changed == "c") s.time_limit_ms = 999;
        if (changed == "d") s.cpu_limit_s = 3;
        if (changed == "e") s.config.width = 21;
        if (changed == "f") s.config.height = 21;
        if (changed == "g") s.config.generations = 51;
        if (changed == "h") s.seed = 2;
        if (changed == "i") s.startup_limit_ms = 20000;
        if (changed == "j") s.cpu_time = true;
        if (changed == "k") s.config.clock_s = 300;
        if (changed == "l") s.config.time_bank_s = 60;
        for (const std::string& k : keys_of(schedule_league(bots, s))) CHECK_FALSE(keys.contains(k));
    }
    // The games per pair decide how many games there are, not any one game.
    LeagueSettings more = base;
    more.games_per_pair = 4;
    for (const std::string& k : keys) CHECK(keys_of(schedule_league(bots, more)).contains(k));

    const ScheduledGame g = schedule_league(bots, base).front();
    GameInputs swapped = g.inputs;
    std::swap(swapped.bots[0], swapped.bots[1]);
    std::swap(swapped.hashes[0], swapped.hashes[1]);
    CHECK(game_key(swapped) != g.key);
    GameInputs shifted = g.inputs;
    shifted.bots = {"a", "bha"};  // "a"+"ha" then "b"+"hb" against "a"+"bha"... with one byte moved
    shifted.hashes = {"h", "hb"};
    CHECK(game_key(shifted) != g.key);
    CHECK(game_key(g.inputs) == g.key);
    // At their defaults, the start-up allowance, time mode and time bank leave a key as it was
    // before they existed: this is the key of this game as stored then.
    CHECK(g.key == "f2ee3375dddf002e0afc4fbf4f1de20b1514dbfa965a86167ddae323667a9c19");
    CHECK(g.key.size() == 64);
    CHECK(g.key.find_first_not_of("0123456789abcdef") == std::string::npos);
    // Repeatable: the same league schedules the same keys and seeds.
    CHECK(schedule_league(bots, base).front().inputs.seed == g.inputs.seed);
    CHECK(keys_of(schedule_league(bots, base)) == keys);
}

TEST_CASE("integrity e2e: forged records are left out of the table and played again by the league") {
    IntegrityFixture f;
    const json before = json::parse(f.league_run().out);
    REQUIRE(before["games"]["played"] == 6);
    CHECK(before["sandboxed"].is_boolean());
    CHECK(f.league_json()["settings"]["sandboxed"] == before["sandboxed"]);
    const std::vector<std::string> keys = f.keys();
    REQUIRE(keys.size() == 6);
    for (const std::string& key : keys) CHECK(json::parse(read_text(f.record(key)))["inputs"]["bots"].size() == 2);

    // The forgery of issue 14 (counted silently before: mean cells 83333334072.4), and the same
    // cells with a plausible winner.
    f.change_record(keys[0], [](json& j) {
        j["winner"] = 7;
        j["cells"] = {-5, 1000000000000};
    });
    f.change_record(keys[1], [](json& j) { j["cells"] = {-5, 1000000000000}; });

    RunOutcome table = f.runner({"table", "--results", f.results.string(), "--format", "json"});
    INFO("table stderr: " << table.err);
    REQUIRE(table.exit_status == 0);
    CHECK(contains(table.err, "table: games/" + keys[0] + ".json: \"winner\" is 7, not 1, 2 or null; left out of the table\n"));
    CHECK(contains(table.err, "table: games/" + keys[1] + ".json: \"cells\" is -5, not from 0 to 400; left out of the table\n"));
    const json partial = json::parse(table.out);
    CHECK(partial["games"]["reused"] == 4);
    CHECK(partial["games"]["total"] == 6);
    int played = 0;
    for (const json& row : partial["standings"]) {
        played += row["played"].get<int>();
        CHECK(row["mean_cells"].get<double>() >= 0);
        CHECK(row["mean_cells"].get<double>() <= 400);
    }
    CHECK(played == 2 * 4);

    const RunOutcome again = f.league_run();
    INFO("league stderr: " << again.err);
    CHECK(contains(again.err, "league: games/" + keys[0] + ".json: \"winner\" is 7, not 1, 2 or null; playing that game again\n"));
    CHECK(contains(again.err, "league: games/" + keys[1] + ".json: \"cells\" is -5, not from 0 to 400; playing that game again\n"));
    const json after = json::parse(again.out);
    CHECK(after["games"]["played"] == 2);
    CHECK(after["games"]["reused"] == 4);
    CHECK(testing::without_times(after["standings"]) == testing::without_times(before["standings"]));
    const json replayed = json::parse(read_text(f.record(keys[0])));
    CHECK(replayed["cells"][0].get<std::int64_t>() >= 0);
    CHECK(replayed["cells"][1].get<std::int64_t>() <= 400);

    // Nothing is wrong any more: nothing is said and nothing is played.
    const RunOutcome quiet = f.league_run();
    CHECK_FALSE(contains(quiet.err, "playing that game again"));
    CHECK(json::parse(quiet.out)["games"]["played"] == 0);
}

TEST_CASE("integrity e2e: a record copied from another game's key is played again") {
    IntegrityFixture f;
    const json before = json::parse(f.league_run().out);
    // A game block plays, copied over a game between the two passive bots, key field and all.
    std::string from, to;
    for (const std::string& key : f.keys()) {
        const json bots = json::parse(read_text(f.record(key)))["inputs"]["bots"];
        const bool with_block = bots[0] == "block" || bots[1] == "block";
        if (with_block && from.empty()) from = key;
        if (!with_block && to.empty()) to = key;
    }
    REQUIRE_FALSE(from.empty());
    REQUIRE_FALSE(to.empty());
    fs::copy_file(f.record(from), f.record(to), fs::copy_options::overwrite_existing);
    f.change_record(to, [&](json& j) { j["key"] = to; });

    const RunOutcome again = f.league_run();
    INFO("stderr: " << again.err);
    CHECK(contains(again.err, "league: games/" + to + ".json: it was played with other inputs than the scheduled game's ("));
    CHECK(contains(again.err, "bots, hashes"));
    const json after = json::parse(again.out);
    CHECK(after["games"]["played"] == 1);
    CHECK(testing::without_times(after["standings"]) == testing::without_times(before["standings"]));
    CHECK(json::parse(read_text(f.record(to)))["inputs"]["bots"] != json::parse(read_text(f.record(from)))["inputs"]["bots"]);
}

TEST_CASE("integrity e2e: a changed limit schedules all-new keys, the old games still count when it changes back") {
    IntegrityFixture f;
    f.league_run();
    const std::vector<std::string> first = f.keys();
    const json lower = json::parse(f.league_run({"--memory-limit", "512"}).out);
    CHECK(lower["games"]["played"] == 6);
    CHECK(lower["games"]["reused"] == 0);
    for (const std::string& key : f.keys()) CHECK(std::find(first.begin(), first.end(), key) == first.end());
    const json back = json::parse(f.league_run().out);
    CHECK(back["games"]["played"] == 0);
    CHECK(back["games"]["reused"] == 6);
}

TEST_CASE("integrity e2e: older records, and a fifo or a /proc symlink planted as a record, are played again") {
    IntegrityFixture f;
    const json before = json::parse(f.league_run().out);
    const std::vector<std::string> keys = f.keys();

    // As the previous runner wrote it: inputs at the top level, some of them missing.
    f.change_record(keys[0], [](json& j) {
        j["bots"] = j["inputs"]["bots"];
        j["hashes"] = j["inputs"]["hashes"];
        j["game_index"] = j["inputs"]["game_index"];
        j["seed"] = j["inputs"]["seed"];
        j.erase("inputs");
    });
    // Opened plainly, a fifo would block the league for ever and the symlink would read /proc.
    fs::remove(f.record(keys[1]));
    REQUIRE(::mkfifo(f.record(keys[1]).c_str(), 0644) == 0);
    fs::remove(f.record(keys[2]));
    fs::create_symlink("/proc/self/pagemap", f.record(keys[2]));

    const RunOutcome again = f.league_run();
    INFO("stderr: " << again.err);
    CHECK(contains(again.err, "league: games/" + keys[0] +
                             ".json: it names no inputs (a record from an older runner); playing that game again\n"));
    CHECK(contains(again.err, "league: games/" + keys[1] + ".json: it is a FIFO, not a regular file; playing that game again\n"));
    CHECK(contains(again.err, "league: games/" + keys[2] + ".json: it is a symbolic link, not a regular file; playing that game again\n"));
    const json after = json::parse(again.out);
    CHECK(after["games"]["played"] == 3);
    CHECK(testing::without_times(after["standings"]) == testing::without_times(before["standings"]));
    for (int i = 0; i < 3; ++i) CHECK(fs::is_regular_file(fs::symlink_status(f.record(keys[i]))));

    // An index from the previous runner: `runner table` says to run the league again.
    json old = f.league_json();
    old["settings"].erase("sandboxed");
    std::ofstream(f.results / "league.json", std::ios::trunc) << old.dump();
    const RunOutcome table = f.runner({"table", "--results", f.results.string()});
    CHECK(table.exit_status == 2);
    CHECK(contains(table.err, "league.json: written by an older runner; run the league again"));

    // One too big to read (sparse: never read) is refused with its limit in MiB.
    fs::resize_file(f.results / "league.json", (std::uintmax_t{256} << 20) + 1);
    const RunOutcome huge = f.runner({"table", "--results", f.results.string()});
    CHECK(huge.exit_status == 2);
    CHECK(contains(huge.err, "league.json: it is over 256 MiB"));
}
