// tlv bots (docs/protocol.md) through the real runner: the arena's sample client, keeping its own
// board, plays duels against an argv bot in either seat, sandboxed and not, and a check; bots
// that break the protocol, never connect or are too slow are disconnected in plain words and
// the game ends with a result.
#include "runner/testing/runner_fixture.hpp"

#include <doctest/doctest.h>

using namespace gol::runner;
using namespace gol::runner::testing;
namespace fs = std::filesystem;

namespace {

// The sample client beside the test bot that runs it; with `record`, the bot writes there
// whether the runner's B equalled its own count.
void add_tlv_blocks(RunnerFixture& f, const std::optional<fs::path>& record = std::nullopt) {
    f.add_test_bots({"tlv_blocks", "block.py"});
    fs::copy_file(fs::path(ARENA_CLIENTS_DIR) / "arena_client.py", f.bots / "tlv_blocks" / "arena_client.py");
    if (record)
        std::ofstream(f.bots / "tlv_blocks" / "bot.json")
            << R"({"run": ["python3", "play.py", "{host}", "{port}", "{width}", "{height}", ")" << record->string()
            << R"("], "protocol": "tlv"})";
}

// The test bots `names` with the modules they import (runner/testing/bots: tlv_wire.py,
// same_strategy.py) beside each.
void add_tlv_bots(RunnerFixture& f, std::initializer_list<const char*> names) {
    f.add_test_bots(names);
    for (const char* bot : names)
        for (const char* module : {"tlv_wire.py", "same_strategy.py"})
            if (fs::is_directory(f.bots / bot)) fs::copy_file(fs::path(TEST_BOTS_DIR) / module, f.bots / bot / module);
}

const std::vector<std::string> kGame = {"--width", "40", "--height", "30", "--generations", "30"};

}  // namespace

TEST_CASE("tlv bots: the sample client plays duels in either seat, sandboxed and not, its B its own count") {
    for (const char* sandbox : {"--no-sandbox", "--sandbox"}) {
        CAPTURE(sandbox);
        RunnerFixture f;
        const bool sandboxed = std::string(sandbox) == "--sandbox";
        // Unsandboxed, the bot can write where the test reads.
        const fs::path record = f.root.path() / "record.txt";
        add_tlv_blocks(f, sandboxed ? std::nullopt : std::optional<fs::path>(record));
        std::vector<std::string> extra = kGame;
        extra.push_back(sandbox);
        for (int seat = 1; seat <= 2; ++seat) {
            CAPTURE(seat);
            const nlohmann::json r = seat == 1 ? f.duel("tlv_blocks", "block.py", extra) : f.duel("block.py", "tlv_blocks", extra);
            CHECK(r["sandboxed"] == sandboxed);
            CHECK(r["generations"] == 30);
            CHECK(r["forfeits"]["tlv_blocks"] == 0);
            CHECK(r["forfeits"]["block"] == 0);
            // A block a turn where it finds free ground, against block.py's one.
            CHECK(r["cells"]["tlv_blocks"] > 8);
            CHECK(r["winner"] == "tlv_blocks");
        }
        if (!sandboxed) CHECK(read_text(record) == "exact\nexact\n");
    }
}

TEST_CASE("tlv bots: a check plays the bot, saying how it runs") {
    RunnerFixture f;
    add_tlv_blocks(f);
    const RunOutcome r = f.runner({"check", (f.bots / "tlv_blocks").string(), "--cache", f.cache.string()});
    INFO(r.out << r.err);
    CHECK(r.exit_status == 0);
    CHECK(contains(r.out + r.err, "protocol: tlv"));
    CHECK(contains(r.out + r.err, "connected over TCP (the tlv protocol)"));
    CHECK(contains(r.out + r.err, "OK: every reply was valid"));
}

TEST_CASE("tlv bots: garbage, no connection and a slow M disconnect the bot in plain words; the game ends") {
    RunnerFixture f;
    add_tlv_bots(f, {"tlv_garbage", "tlv_silent", "tlv_slow", "block.py"});
    const std::pair<const char*, const char*> cases[] = {
        {"tlv_garbage", "it sent a message of unknown type 'Z'"},
        {"tlv_silent", "the bot did not connect to 127.0.0.1:"},
        {"tlv_slow", "no whole M after its T within the limit of 700 ms"},
    };
    for (const auto& [bot, words] : cases) {
        CAPTURE(bot);
        const fs::path log = f.root.path() / (std::string(bot) + ".log");
        const nlohmann::json r = f.duel(bot, "block.py", {"--startup-limit", "200", "--time-limit", "500", "--generations",
                                                          "30", "--log", log.string()});
        CHECK(r["forfeits"][bot] == 1);
        CHECK(r["reason"] == "forfeit");
        CHECK(r["winner"] == "block");
        const std::string reasons = r["forfeit_reasons"][bot].dump();
        INFO(reasons);
        CHECK(contains(reasons, "disconnected"));
        CHECK(contains(read_text(log), std::string("forfeit disconnected: ") + words));
    }
}

TEST_CASE("tlv bots: one strategy as an argv bot and as a tlv bot gets the same results in one league") {
    RunnerFixture f;
    add_tlv_bots(f, {"same_argv", "same_tlv", "block.py"});
    for (const char* sandbox : {"--no-sandbox", "--sandbox"}) {
        CAPTURE(sandbox);
        const std::string results = (f.root.path() / (std::string("results") + sandbox)).string();
        const RunOutcome r = f.runner({"league", f.bots.string(), "--results", results, "--cache", f.cache.string(),
                                       "--width", "60", "--height", "40", "--generations", "60", "-j", "2", "--format",
                                       "json", sandbox});
        INFO(r.err);
        REQUIRE(r.exit_status == 0);
        const nlohmann::json t = nlohmann::json::parse(r.out);
        // The results; not the ratings, whose last digits and whose comparison with the next
        // bot (los_next) depend on the two bots' order in the table.
        nlohmann::json argv, tlv;
        for (const nlohmann::json& row : t["standings"]) {
            nlohmann::json results;
            for (const char* key : {"played", "wins", "draws", "losses", "points", "forfeits", "mean_cells", "rank"})
                results[key] = row[key];
            if (row["bot"] == "same_argv") argv = results;
            if (row["bot"] == "same_tlv") tlv = results;
        }
        CHECK(argv.dump() == tlv.dump());
        CHECK(argv["forfeits"] == 0);
        // The two against each other: each game's result mirrors the other's, seats swapped.
        const RunOutcome a = f.runner({"duel", "same_argv", "same_tlv", "--bots", f.bots.string(), "--json", "--width",
                                       "60", "--height", "40", "--generations", "60", sandbox});
        const RunOutcome b = f.runner({"duel", "same_tlv", "same_argv", "--bots", f.bots.string(), "--json", "--width",
                                       "60", "--height", "40", "--generations", "60", sandbox});
        REQUIRE(a.exit_status == 0);
        REQUIRE(b.exit_status == 0);
        const nlohmann::json ja = nlohmann::json::parse(a.out), jb = nlohmann::json::parse(b.out);
        CHECK(ja["cells"]["same_argv"] == jb["cells"]["same_tlv"]);
        CHECK(ja["cells"]["same_tlv"] == jb["cells"]["same_argv"]);
        CHECK(ja["generations"] == jb["generations"]);
    }
}
