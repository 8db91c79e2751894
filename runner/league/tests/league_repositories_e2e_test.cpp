// End to end: bots from contestants' git repositories (docs/league.md, "Bots from git
// repositories"), through the real `runner`: a tournament file lists them, `runner import
// --repositories` fetches them from local bare repositories each test makes, the league records
// the commit of each game and keeps the last good one when a fetch or a build fails, and the
// leaderboard page says so. No network.
#include "runner/testing/local_repository.hpp"
#include "runner/testing/runner_fixture.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <set>

using namespace gol::runner;
using gol::runner::testing::contains;
using gol::runner::testing::LocalRepository;
using gol::runner::testing::read_text;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

const char* kManifest = R"({"run": ["python3", "bot.py"]})";
// A block at a place of its own: each commit plays other moves.
std::string block_bot(int row) {
    return "import json, sys\nstate = json.loads(sys.argv[1])\nprint(json.dumps([[" + std::to_string(row) + ", 2], [" +
           std::to_string(row) + ", 3]] if state['tick_id'] == 0 else []))\n";
}

struct Fixture : testing::RunnerFixture {
    LocalRepository repo{root.path(), "alice"};
    fs::path tournament = root.path() / "cup.json";

    Fixture() {
        add_test_bots({"idle.sh"});
        std::ofstream(tournament) << R"({"bots": "bots", "width": 20, "height": 20, "generations": 5, "sandbox": false,
            "time_limit_ms": 60000, "repositories": [{"name": "alice", "url": ")"
                                  << repo.url() << R"("}]})";
    }

    RunOutcome fetch() { return runner({"import", "--repositories", "--tournament", tournament.string(), "--allow-file-urls"}); }
    RunOutcome league() { return runner({"league", "--tournament", tournament.string(), "--cache", cache.string(), "--quiet"}); }
    fs::path results() const { return root.path() / "cup"; }
    std::string page() const { return read_text(results() / "leaderboard.html"); }

    // The commits alice's seat played in the stored games.
    std::set<std::string> alice_commits() const {
        std::set<std::string> commits;
        for (const auto& e : fs::directory_iterator(results() / "games")) {
            const json record = json::parse(read_text(e.path()));
            for (int seat = 0; seat < 2; ++seat)
                if (record["inputs"]["bots"][seat] == "alice") commits.insert(record["commits"][seat].get<std::string>());
        }
        return commits;
    }
};

}  // namespace

TEST_CASE("league repositories e2e: fetched, played, a new commit picked up and recorded per game") {
    Fixture f;
    const std::string first = f.repo.commit({{"bot.py", block_bot(2)}, {"bot.json", kManifest}});
    RunOutcome r = f.fetch();
    INFO("stdout: " << r.out << "stderr: " << r.err);
    REQUIRE(r.exit_status == 0);
    CHECK(contains(r.out, "  imported   alice  " + first.substr(0, 12) + "  " + f.repo.url() + " main\n"));
    CHECK(contains(r.out, "import: 1 imported, 0 updated, 0 unchanged, 0 failed\n"));
    r = f.league();
    REQUIRE(r.exit_status == 0);
    CHECK(f.alice_commits() == std::set<std::string>{first});
    CHECK(contains(f.page(), "<li><b>alice</b>: " + f.repo.url() + ", branch main, plays commit <code>" + first +
                                 "</code>; its games: 2 at <code>" + first.substr(0, 12) + "</code></li>"));
    CHECK_FALSE(contains(f.page(), "Warning:"));

    const std::string second = f.repo.commit({{"bot.py", block_bot(6)}});
    r = f.fetch();
    CHECK(contains(r.out, "  updated    alice  " + second.substr(0, 12)));
    r = f.league();
    REQUIRE(r.exit_status == 0);
    // The new commit is a new bot (its content hash): its games are played, the old ones stay stored.
    CHECK(f.alice_commits() == std::set<std::string>{first, second});
    CHECK(contains(f.page(), "plays commit <code>" + second + "</code>; its games: 2 at <code>" + second.substr(0, 12)));
    const json index = json::parse(read_text(f.results() / "league.json"));
    CHECK(index["repositories"] == json::parse(R"([{"bot": "alice", "url": ")" + f.repo.url() +
                                               R"(", "branch": "main", "commit": ")" + second + R"(", "warning": ""}])"));
    // The JSON table (the nightly's leaderboard.json) says the same.
    r = f.runner({"table", "--tournament", f.tournament.string(), "--format", "json"});
    REQUIRE(r.exit_status == 0);
    CHECK(json::parse(r.out)["repositories"] == index["repositories"]);
}

TEST_CASE("league repositories e2e: a repository gone keeps its last good commit, and the page warns") {
    Fixture f;
    const std::string first = f.repo.commit({{"bot.py", block_bot(2)}, {"bot.json", kManifest}});
    REQUIRE(f.fetch().exit_status == 0);
    REQUIRE(f.league().exit_status == 0);
    fs::remove_all(f.repo.bare());
    RunOutcome r = f.fetch();
    INFO("stdout: " << r.out << "stderr: " << r.err);
    // The night goes on: the failure is the repository's row, and the league's warning.
    CHECK(r.exit_status == 0);
    CHECK(contains(r.out, "  failed     alice  " + first.substr(0, 12) + "  git fetch failed: "));
    CHECK(contains(r.out, "does not appear to be a git repository; keeps commit " + first.substr(0, 12) + "\n"));
    r = f.league();
    REQUIRE(r.exit_status == 0);
    CHECK(contains(r.err, "league: warning: alice: its last fetch ("));
    CHECK(f.alice_commits() == std::set<std::string>{first});
    const std::string page = f.page();
    CHECK(contains(page, "<p class=\"warning\">Warning: <b>alice</b>: its last fetch ("));
    CHECK(contains(page, ") failed: git fetch failed: &#39;" + f.repo.bare().string() +
                             "&#39; does not appear to be a git repository; it plays commit " + first.substr(0, 12)));
    CHECK(contains(page, "plays commit <code>" + first + "</code>"));
}

TEST_CASE("league repositories e2e: a commit that does not build leaves its last good commit playing") {
    Fixture f;
    const std::string first = f.repo.commit({{"bot.py", block_bot(2)}, {"bot.json", kManifest}});
    REQUIRE(f.fetch().exit_status == 0);
    REQUIRE(f.league().exit_status == 0);
    const std::string broken = f.repo.commit({{"bot.json", R"({"run": ["python3", "bot.py"], "build": "exit 3"})"}});
    REQUIRE(f.fetch().exit_status == 0);
    RunOutcome r = f.league();
    INFO("stderr: " << r.err);
    REQUIRE(r.exit_status == 0);
    CHECK(contains(r.err, "league: warning: alice: commit " + broken.substr(0, 12) + " does not build ("));
    CHECK(contains(r.err, "league: 2 bots, 0 excluded"));
    // The last good commit is the bot it was: its stored games count, none is played again.
    CHECK(contains(r.err, "2 games: 2 stored, 0 to play"));
    CHECK(f.alice_commits() == std::set<std::string>{first});
    CHECK(contains(f.page(), "; it plays its last good commit " + first.substr(0, 12) + ".</p>"));
    CHECK(contains(f.page(), "plays commit <code>" + first + "</code>"));
}

TEST_CASE("league repositories e2e: a hostile URL is refused with its reason, and nothing runs") {
    Fixture f;
    const fs::path pwned = f.root.path() / "pwned";
    std::ofstream(f.tournament) << R"({"bots": "bots", "repositories": [{"name": "evil", "url": "ext::sh -c touch% )"
                                << pwned.string() << R"("}]})";
    RunOutcome r = f.fetch();
    CHECK(r.exit_status == 2);
    CHECK(contains(r.err, "\"repositories\"[0]: \"url\": a transport helper (\"ext::\"): git would run a program"));
    r = f.runner({"import", "--git", "ext::sh -c touch% " + pwned.string(), "--bots", f.bots.string()});
    CHECK(r.exit_status == 2);
    CHECK(contains(r.err, "runner: error: --git ext::sh -c touch% " + pwned.string() + ": a transport helper (\"ext::\")"));
    r = f.runner({"import", "--git", f.repo.url(), "--bots", f.bots.string()});
    CHECK(r.exit_status == 2);
    CHECK(contains(r.err, "a file:// URL, which reads a repository of this machine: allowed only with --allow-file-urls"));
    CHECK_FALSE(fs::exists(pwned));
    CHECK_FALSE(fs::exists(f.bots / ".repositories"));
}
