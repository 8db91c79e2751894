// A replay's forfeited turns, by the ticks that name them everywhere (docs/replay.md).
#include "runner/game/replay.hpp"

#include <doctest/doctest.h>

#include <limits>
#include <sstream>

using namespace gol::runner;

namespace {

Move forfeit(ForfeitKind kind, std::string detail = "") { return Move{{}, Forfeit{kind, std::move(detail)}}; }

}  // namespace

TEST_CASE("forfeit_runs: consecutive ticks of one seat and reason make a run, named by its ticks") {
    const Move played{{{1, 1}}, std::nullopt};
    const std::vector<std::array<Move, 2>> ticks = {
        {played, played},
        {played, forfeit(ForfeitKind::timeout, "first")},
        {forfeit(ForfeitKind::signal), forfeit(ForfeitKind::timeout, "second")},
        {played, forfeit(ForfeitKind::not_json)},
        {played, forfeit(ForfeitKind::not_json)},
    };
    const std::vector<ForfeitRun> runs = forfeit_runs(ticks);
    REQUIRE(runs.size() == 3);
    CHECK(runs[0].seat == 2);
    CHECK(ticks_text(runs[0]) == "ticks 1-2");
    CHECK(runs[0].forfeit == Forfeit{ForfeitKind::timeout, "first"});
    CHECK(runs[1].seat == 1);
    CHECK(ticks_text(runs[1]) == "tick 2");
    CHECK(runs[2].forfeit.kind == ForfeitKind::not_json);
    CHECK(ticks_text(runs[2]) == "ticks 3-4");
    CHECK(forfeit_runs({{played, played}}).empty());
    // A tick played between two forfeits of one reason ends the run; each seat's runs are its own.
    const std::vector<ForfeitRun> apart = forfeit_runs({{forfeit(ForfeitKind::timeout), played},
                                                        {played, forfeit(ForfeitKind::timeout)},
                                                        {forfeit(ForfeitKind::timeout), forfeit(ForfeitKind::timeout)}});
    REQUIRE(apart.size() == 3);
    CHECK((apart[0].seat == 1 && ticks_text(apart[0]) == "tick 0"));
    CHECK((apart[1].seat == 2 && ticks_text(apart[1]) == "ticks 1-2"));
    CHECK((apart[2].seat == 1 && ticks_text(apart[2]) == "tick 2"));
}

TEST_CASE("replay header: the moves' GOL_SEED, start-up allowance and time mode are written and read back") {
    ReplayHeader header{{"a", "b"}, {"1", "2"}, GameConfig{}, 7, 300};
    std::istringstream old_file(replay_text(Replay{header, {{Move{}, Move{}}}, GameResult{{0, EndReason::extinction}, 1, {0, 0}, {0, 0}}}));
    const Replay old = read_replay(old_file);
    CHECK_FALSE(old.header.gol_seed);  // a replay from before they were recorded has none
    CHECK_FALSE(old.header.startup_limit_ms);
    CHECK_FALSE(old.header.cpu_time);

    header.gol_seed = std::numeric_limits<std::uint64_t>::max();
    header.startup_limit_ms = 0;
    header.cpu_time = true;
    const nlohmann::json j = header;
    CHECK(j["time_mode"] == "cpu");
    const ReplayHeader back = j.get<ReplayHeader>();
    CHECK(back.gol_seed == header.gol_seed);
    CHECK(back.startup_limit_ms == 0);
    CHECK(back.cpu_time == true);

    nlohmann::json bad = j;
    bad["gol_seed"] = -1;
    CHECK_THROWS_WITH_AS(bad.get<ReplayHeader>(), "\"gol_seed\" must be an integer from 0 to 2^64-1", RecordError);
    bad = j;
    bad["time_mode"] = "fast";
    CHECK_THROWS_AS(bad.get<ReplayHeader>(), RecordError);
}
