// A replay's forfeited turns, by the ticks that name them everywhere (docs/replay.md).
#include "runner/game/replay.hpp"

#include <doctest/doctest.h>

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
}
