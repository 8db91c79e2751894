// Stored records: read back only for the game they name, and only with a result that game can have.
#include "runner/league/game_record.hpp"
#include "runner/league/league_schedule.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <functional>

using namespace gol::runner;
using nlohmann::json;

namespace {

// Game 0 of a against b on a 20x10 board, 100 generations.
ScheduledGame scheduled(int which = 0) {
    LeagueSettings s;
    s.config = {20, 10, 100};
    return schedule_league({{"a", "hash-a"}, {"b", "hash-b"}}, s).at(static_cast<std::size_t>(which));
}

// What a league would store for it: seat 1 wins 30 to 12 after all generations, seat 2 having
// timed out twice.
GameRecord valid_record(const ScheduledGame& g) {
    GameRecord r{g.inputs, g.key, {}, {}, {}, {}, {}, {}};
    r.result.verdict = {1, EndReason::generations};
    r.result.generations = 100;
    r.result.cells = {30, 12};
    r.result.forfeits = {0, 2};
    r.forfeit_reasons[1] = {{"timeout", 2}};
    r.last_forfeit[1] = "timeout: no reply within 1000 ms";
    return r;
}

// read_record's complaint about the valid record changed by `change`, or "" if it accepts it.
std::string problem(const std::function<void(json&)>& change, const ScheduledGame& g = scheduled()) {
    json j = json::parse(record_text(valid_record(scheduled())));
    change(j);
    try {
        read_record(j.dump(), g);
    } catch (const RecordError& e) {
        return e.what();
    }
    return "";
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("game record: written and read back for its game, naming every input") {
    const ScheduledGame g = scheduled();
    const GameRecord r = read_record(record_text(valid_record(g)), g);
    CHECK(r.key == g.key);
    CHECK(r.bots == std::array<std::string, 2>{"a", "b"});
    CHECK(r.hashes == std::array<std::string, 2>{"hash-a", "hash-b"});
    CHECK(r.seed == g.inputs.seed);
    CHECK(r.result.verdict.winner_seat == 1);
    CHECK(r.result.cells == std::array<std::int64_t, 2>{30, 12});
    CHECK(r.forfeit_reasons[1].at("timeout") == 2);
    CHECK(r.last_forfeit[1] == "timeout: no reply within 1000 ms");

    const json inputs = json::parse(record_text(r))["inputs"];
    for (const char* field : {"rules_version", "bots", "hashes", "game_index", "seed", "width", "height", "generations",
                              "time_limit_ms", "memory_limit_mb", "cpu_limit_s", "sandboxed"})
        CHECK_MESSAGE(inputs.contains(field), field);
    CHECK(problem([](json&) {}) == "");
}

TEST_CASE("game record: one for another game, another key or an older runner is refused") {
    CHECK(has(problem([](json&) {}, scheduled(1)), "other inputs than the scheduled game's (bots, game_index, hashes, seed differ)"));
    CHECK(has(problem([](json& j) { j["inputs"]["sandboxed"] = false; }), "(sandboxed differ)"));
    CHECK(has(problem([](json& j) { j["inputs"]["memory_limit_mb"] = 2048; }), "(memory_limit_mb differ)"));
    CHECK(has(problem([](json& j) { j["inputs"]["time_bank_s"] = 60; }), "(time_bank_s differ)"));
    // A clock or a bank of 0 is none, which a record writes as no field: a 0 is refused, not taken for none.
    CHECK(has(problem([](json& j) { j["inputs"]["clock_s"] = 0; }), "\"clock_s\" is 0, not from 1"));
    CHECK(has(problem([](json& j) { j["inputs"]["rules_version"] = "ppcg2016-0"; }), "(rules_version differ)"));
    CHECK(has(problem([](json& j) { j["key"] = std::string(64, '0'); }), "its key is"));
    CHECK(has(problem([](json& j) {
              j["bots"] = j["inputs"]["bots"];
              j.erase("inputs");
          }),
          "names no inputs (a record from an older runner)"));
    CHECK(has(problem([](json& j) { j = json::array(); }), "not a JSON object"));
    CHECK(has(problem([](json& j) { j = "{"; }), "not a JSON object"));
    CHECK_THROWS_WITH_AS(read_record("{\"key\": ", scheduled()), doctest::Contains("invalid JSON"), RecordError);
}

TEST_CASE("game record: impossible results are refused, naming what is wrong") {
    using Change = std::function<void(json&)>;
    const std::vector<std::pair<Change, std::string>> cases = {
        {[](json& j) { j["winner"] = 7; }, "\"winner\" is 7, not 1, 2 or null"},
        {[](json& j) { j["winner"] = "1"; }, "\"winner\" is \"1\""},
        {[](json& j) { j["winner"] = 1.0; }, "\"winner\" is 1.0"},
        {[](json& j) { j["cells"] = {-5, 1000000000000}; }, "\"cells\" is -5, not from 0 to 200"},
        {[](json& j) { j["cells"] = {30, 1000000000000}; }, "\"cells\" is 1000000000000, not from 0 to 200"},
        {[](json& j) { j["cells"] = {30.5, 12}; }, "\"cells\" is 30.5, not an integer"},
        {[](json& j) { j["cells"] = {1e300, 12}; }, "not an integer"},
        {[](json& j) { j["cells"] = {30}; }, "\"cells\" is not a list of two"},
        {[](json& j) { j["cells"] = {12, 30}; }, "the winner is not the side with more cells"},
        {[](json& j) { j["cells"] = {12, 12}; }, "the winner is not the side with more cells (or a draw when equal)"},
        {[](json& j) { j["cells"] = {30, 0}; }, "one side has 0 cells"},
        {[](json& j) { j["generations"] = 0; }, "\"generations\" is 0, not from 1 to 100"},
        {[](json& j) { j["generations"] = 101; }, "\"generations\" is 101, not from 1 to 100"},
        {[](json& j) { j["generations"] = 99; }, "it ended by generations after 99 of 100"},
        {[](json& j) { j["reason"] = "resigned"; }, "\"reason\" is \"resigned\""},
        {[](json& j) { j["reason"] = "forfeit"; }, "it ended by forfeit, but the losing seat has no disconnected forfeit"},
        {[](json& j) { j["reason"] = "clock"; }, "it ended by the clock, but its game has none"},
        {[](json& j) { j["reason"] = "extinction"; }, "not exactly one side has 0 cells"},
        {[](json& j) {
             j["reason"] = "extinction";
             j["cells"] = {0, 12};
         },
         "the winner is not the side with cells left"},
        {[](json& j) { j["forfeits"] = {0, 101}; }, "\"forfeits\" is 101, not from 0 to 100"},
        {[](json& j) { j["forfeits"] = {-1, 2}; }, "\"forfeits\" is -1"},
        {[](json& j) { j["forfeits"] = {0, 3}; }, "seat 2's forfeit_reasons add up to 2, not its 3 forfeits"},
        {[](json& j) { j["forfeit_reasons"][1]["timeout"] = 0; }, "\"forfeit_reasons\" is 0"},
        {[](json& j) { j.erase("last_forfeit"); }, "it has no \"last_forfeit\""},
    };
    for (const auto& [change, expected] : cases) {
        const std::string p = problem(change);
        CAPTURE(p);
        CHECK(has(p, expected));
    }

    // What the rules allow is accepted: a draw on equal cells, and extinction before the limit.
    CHECK(problem([](json& j) {
              j["cells"] = {12, 12};
              j["winner"] = nullptr;
          }) == "");
    CHECK(problem([](json& j) {
              j["reason"] = "extinction";
              j["generations"] = 7;
              j["cells"] = {0, 12};
              j["winner"] = 2;
              j["forfeits"] = {0, 0};
              j["forfeit_reasons"][1] = json::object();
          }) == "");
}

TEST_CASE("game record: time per move is kept by seat, and a record without it still loads") {
    const ScheduledGame g = scheduled();
    GameRecord r = valid_record(g);
    using us = std::chrono::microseconds;
    const MoveTiming seat2{.moves = 100, .wall_total = us(2'500'000), .wall_max = us(1'000'400), .cpu_moves = 98,
                           .cpu_total = us(40'000), .cpu_max = us(3'000), .timeouts = 2, .near_timeouts = 1};
    r.timing = std::array<MoveTiming, 2>{MoveTiming{}, seat2};
    const std::string text = record_text(r);
    CHECK(json::parse(text)["move_times"][1]["wall_max_us"] == 1'000'400);
    const GameRecord back = read_record(text, g);
    REQUIRE(back.timing);
    CHECK((*back.timing)[1] == seat2);
    CHECK((*back.timing)[0] == MoveTiming{});

    // Records from before time per move was kept have no "move_times".
    CHECK(!read_record(record_text(valid_record(g)), g).timing);

    auto problem_with = [&](const std::function<void(json&)>& change) {
        json j = json::parse(text);
        change(j);
        try {
            read_record(j.dump(), g);
        } catch (const RecordError& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    CHECK(has(problem_with([](json& j) { j["move_times"][1]["timeouts"] = 1; }),
              "seat 2's move_times count other timeouts than its forfeit_reasons"));
    CHECK(has(problem_with([](json& j) { j["move_times"][1]["cpu_moves"] = 101; }), "\"cpu_moves\" is 101, not from 0 to 100"));
    CHECK(has(problem_with([](json& j) { j["move_times"][0]["wall_total_us"] = -1; }), "\"wall_total_us\" is -1"));
    CHECK(has(problem_with([](json& j) { j["move_times"][1]["wall_max_us"] = 9'000'000; }), "longest move longer than"));
    CHECK(has(problem_with([](json& j) { j["move_times"] = json::array({1}); }), "\"move_times\" is not a list of two"));
    CHECK(has(problem_with([](json& j) { j["move_times"][0].erase("moves"); }), "\"moves\""));
}

TEST_CASE("game record: its start and length are kept, optional, and checked") {
    const ScheduledGame g = scheduled();
    GameRecord timed = valid_record(g);
    timed.when = GameWhen{"2026-11-27T03:17:02Z", std::chrono::milliseconds(9'812'345)};
    const GameRecord back = read_record(record_text(timed), g);
    REQUIRE(back.when);
    CHECK(*back.when == *timed.when);
    CHECK_FALSE(read_record(record_text(valid_record(g)), g).when);  // a record from before it was kept
    CHECK(has(problem([](json& j) {
                  j["started"] = "<b>yesterday</b>";
                  j["duration_ms"] = 5;
              }),
              "\"started\" is not a UTC time"));
    CHECK(has(problem([](json& j) {
                  j["started"] = "2026-11-27T03:17:02Z";
                  j["duration_ms"] = -1;
              }),
              "duration_ms"));
    CHECK(has(problem([](json& j) { j["started"] = "2026-11-27T03:17:02Z"; }), "duration_ms"));
}

TEST_CASE("game record: a start time as records write it") {
    CHECK(utc_timestamp(std::chrono::system_clock::time_point(std::chrono::seconds(1'795'835'822))) ==
          "2026-11-28T03:17:02Z");
}

TEST_CASE("game record: the commit a bot from a git repository played, by seat, optional, and checked") {
    const ScheduledGame g = scheduled();
    GameRecord played = valid_record(g);
    played.commits = {"", "7d625ee2d6451bdda8b474559a5e5b1ec96fcc85"};
    const json written = json::parse(record_text(played));
    CHECK(written["commits"] == json::parse(R"([null, "7d625ee2d6451bdda8b474559a5e5b1ec96fcc85"])"));
    CHECK(read_record(record_text(played), g).commits == played.commits);
    // No bot from a repository: no field, and a record without one reads as such.
    CHECK_FALSE(json::parse(record_text(valid_record(g))).contains("commits"));
    CHECK(read_record(record_text(valid_record(g)), g).commits == std::array<std::string, 2>{});
    CHECK(has(problem([](json& j) { j["commits"] = {nullptr, "<script>"}; }), "\"commits\" holds \"<script>\", not a commit's id"));
    CHECK(has(problem([](json& j) { j["commits"] = {nullptr}; }), "commits"));
}
