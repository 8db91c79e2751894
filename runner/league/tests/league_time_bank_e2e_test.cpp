// End to end: a league with a time bank from its tournament file (docs/rules.md, "Time bank"):
// a bot that spends it has its move cut where it ends and is not run after it, the store keeps the bank in every key, record and its
// index, and the table, --plan and a bad key say what they should.
#include "runner/testing/runner_fixture.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

using namespace gol::runner;
using gol::runner::testing::contains;
using gol::runner::testing::read_text;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

struct BankFixture : testing::RunnerFixture {
    fs::path cup = root.path() / "cup.json";
    fs::path results = root.path() / "cup";

    BankFixture() {
        add_test_bots({"bank_spender.sh", "idle.sh"});
        std::ofstream(cup) << R"({"bots": "bots", "width": 20, "height": 20, "generations": 3, "jobs": 1,
                                 "sandbox": false, "time_bank_s": 1})";
    }

    RunOutcome league(std::vector<std::string> extra = {}) {
        std::vector<std::string> args = {"league", "--tournament", cup.string(), "--cache", cache.string(),
                                         "--format", "json"};
        args.insert(args.end(), extra.begin(), extra.end());
        return runner(args);
    }
};

}  // namespace

TEST_CASE("league time bank e2e: a bot that spends its bank is cut short and not run after it, and the store keeps "
          "the bank") {
    BankFixture f;
    RunOutcome r = f.league();
    INFO("stderr: " << r.err);
    REQUIRE(r.exit_status == 0);
    // Two games, each a bank of its own: bank_spender ran at ticks 0 and 1 of each (its second
    // move cut where the bank ends), and not after.
    CHECK(read_text(f.bots / "bank_moves.txt") == "move\nmove\nmove\nmove\n");
    const json table = json::parse(r.out);
    CHECK(table["games"]["played"] == 2);
    CHECK(contains(table["notes"].dump(), "each bot had a time bank of 1 s of move time a game"));
    const json index = json::parse(read_text(f.results / "league.json"));
    CHECK(index["settings"]["time_bank_s"] == 1);
    int records = 0;
    for (const auto& entry : fs::directory_iterator(f.results / "games")) {
        const json g = json::parse(read_text(entry.path()));
        CHECK(g["inputs"]["time_bank_s"] == 1);
        const int seat = g["inputs"]["bots"][0] == "bank_spender" ? 0 : 1;
        CHECK(g["forfeit_reasons"][seat] == json{{"time_bank", 1}, {"timeout", 1}});
        ++records;
    }
    CHECK(records == 2);
    // The end of the run says where the turns went: the bank, not a broken bot.
    CHECK(contains(r.err, "league: bank_spender spent its time bank (--time-bank): 2 more of its turns were forfeited "
                          "without running it\n"));
    CHECK_FALSE(contains(r.err, "bank_spender forfeited every one"));

    // The store reads back: a second run plays nothing, and the table is there.
    r = f.league();
    REQUIRE(r.exit_status == 0);
    CHECK(json::parse(r.out)["games"]["played"] == 0);
    CHECK(f.runner({"table", "--tournament", f.cup.string()}).exit_status == 0);

    // Another bank is another game: --plan lists both again, its estimate bounded by the bank.
    r = f.league({"--plan", "--time-bank", "5"});
    REQUIRE(r.exit_status == 0);
    CHECK(contains(r.err, "league: plan: 2 of 2 games to play"));
    CHECK(contains(r.err, "at most its time bank, 5 s a game"));
}

TEST_CASE("league time bank e2e: a bad time_bank_s is refused by name, before anything plays") {
    BankFixture f;
    std::ofstream(f.cup) << R"({"bots": "bots", "time_bank_s": "60"})";
    RunOutcome r = f.league();
    CHECK(r.exit_status == 2);
    CHECK(contains(r.err, "cup.json: \"time_bank_s\" is \"60\", not an integer from 0 to 1000000"));
    CHECK_FALSE(fs::exists(f.bots / "bank_moves.txt"));
}
