// The games --until-separated adds: keys apart from the schedule's, seats alternating, and the
// same list giving the same games.
#include "runner/league/league_schedule.hpp"

#include <doctest/doctest.h>

#include <set>
#include <stdexcept>

using namespace gol::runner;

namespace {

const std::vector<ScheduledBot> kBots = {{"a", "ha"}, {"b", "hb"}, {"c", "hc"}};

}  // namespace

TEST_CASE("schedule_added: each entry is its pair's next two games, one in each seat order") {
    const LeagueSettings s;  // 2 games a pair
    const std::vector<ScheduledGame> base = schedule_league(kBots, s);
    // Named upper bot first, as the table names them: seats go by the bot list all the same.
    const std::vector<ScheduledGame> added = schedule_added(kBots, s, {{"c", "a"}, {"b", "c"}, {"a", "c"}});
    REQUIRE(added.size() == 6);
    CHECK(added[0].inputs.game_index == 2);
    CHECK(added[1].inputs.game_index == 3);
    CHECK(added[4].inputs.game_index == 4);
    CHECK(added[5].inputs.game_index == 5);
    CHECK(added[0].inputs.bots == std::array<std::string, 2>{"a", "c"});
    CHECK(added[1].inputs.bots == std::array<std::string, 2>{"c", "a"});
    CHECK(added[2].inputs.game_index == 2);
    CHECK(added[2].inputs.bots == std::array<std::string, 2>{"b", "c"});
    std::set<std::string> keys;
    for (const ScheduledGame& g : base) keys.insert(g.key);
    for (const ScheduledGame& g : added) keys.insert(g.key);
    CHECK(keys.size() == base.size() + added.size());
    CHECK(schedule_added(kBots, s, {{"c", "a"}, {"b", "c"}, {"a", "c"}})[5].key == added[5].key);
}

TEST_CASE("schedule_added: an added game is the game a league with more games a pair plays") {
    LeagueSettings four;
    four.games_per_pair = 4;
    const std::vector<ScheduledGame> longer = schedule_league(kBots, four);
    const std::vector<ScheduledGame> added = schedule_added(kBots, LeagueSettings{}, {{"a", "b"}});
    REQUIRE(added.size() == 2);
    CHECK(added[0].key == longer[2].key);
    CHECK(added[1].key == longer[3].key);
}

TEST_CASE("schedule_added: a bot not in the league, or a bot paired with itself, is refused") {
    CHECK_THROWS_AS(schedule_added(kBots, LeagueSettings{}, {{"a", "z"}}), std::invalid_argument);
    CHECK_THROWS_AS(schedule_added(kBots, LeagueSettings{}, {{"a", "a"}}), std::invalid_argument);
}
