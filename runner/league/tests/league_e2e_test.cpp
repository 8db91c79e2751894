// End to end: `runner league` and `runner table` on real bots, including a league killed,
// interrupted or stopped mid-run, and a second run on a store in use.
#include "runner/bots/content_hash.hpp"
#include "runner/league/results_store.hpp"
#include "runner/sandbox/sandbox.hpp"
#include "runner/sys/unique_fd.hpp"
#include "runner/testing/runner_fixture.hpp"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <thread>

using namespace gol::runner;
using gol::runner::testing::read_text;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

struct LeagueFixture : testing::RunnerFixture {
    LeagueFixture() {
        fs::create_directories(bots);
        const fs::path src = TEST_BOTS_DIR;
        fs::copy(src / "block.py", bots / "block.py");
        fs::copy(src / "block.cpp", bots / "cblock.cpp");
        fs::copy(src / "idle.sh", bots / "idle.sh");
        fs::copy(src / "nap.sh", bots / "nap.sh");
    }

    // The sandbox has tests of its own (sys/tests/sandbox_test.cpp); ten generations decide
    // these games as a hundred would.
    std::vector<std::string> league_args(const std::string& results, const std::string& format = "json") {
        return {"league", bots.string(), "--results", (root.path() / results).string(), "--cache", cache.string(),
                "--width", "20", "--height", "20", "--generations", "10", "-j", "1", "--format", format,
                "--no-sandbox", "--time-limit", "60000"};
    }

    // Replaces nap with `gate`, a passive bot that, once a game of `results` is stored, waits
    // before answering until open_gate(): whenever a test stops the league after its first
    // stored game, games are still to play, on any machine. The long time limit keeps the wait
    // from ending in a timeout.
    void add_gate(const std::string& results) {
        fs::remove(bots / "nap.sh");
        std::ofstream(bots / "gate.sh") << "open='" << gate().string() << "'\n"
                                        << "if [ ! -e \"$open\" ] && ls '" << (root.path() / results).string()
                                        << "'/games/*.json >/dev/null 2>&1; then\n"
                                        << "  while [ ! -e \"$open\" ]; do sleep 0.02; done\n"
                                        << "fi\necho '[]'\n";
    }
    fs::path gate() const { return root.path() / "gate-open"; }
    void open_gate() const { std::ofstream(gate()) << "open"; }

    // Starts the league on `results` in a thread, and returns once its first game is stored.
    std::thread start_league(const std::string& results, RunOutcome& outcome, ProcessRegistry* registry = nullptr) {
        std::thread league([this, results, &outcome, registry] {
            outcome = runner(league_args(results), std::chrono::seconds(120), registry);
        });
        const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
        while (stored(results) == 0 && std::chrono::steady_clock::now() < give_up)
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        return league;
    }

    // Sends `signal` to this fixture's runner, as Ctrl-C or kill would.
    void signal_runner(int signal) const {
        for (const auto& entry : fs::directory_iterator("/proc")) {
            const std::string cmd = read_text(entry.path() / "cmdline");
            if (cmd.starts_with(std::string(RUNNER_BIN) + '\0') && cmd.find(bots.string()) != std::string::npos)
                ::kill(std::stoi(entry.path().filename().string()), signal);
        }
    }

    json league(const std::string& results) {
        RunOutcome r = runner(league_args(results));
        INFO("stderr: " << r.err);
        REQUIRE(r.kind == RunOutcome::Kind::exited);
        REQUIRE(r.exit_status == 0);
        return json::parse(r.out);
    }

    // Finished games only: a runner killed mid-write leaves a hidden temporary file beside them.
    int stored(const std::string& results) {
        fs::path games = root.path() / results / "games";
        if (!fs::exists(games)) return 0;
        int n = 0;
        for (const auto& entry : fs::directory_iterator(games))
            n += entry.path().extension() == ".json" && !entry.path().filename().string().starts_with(".");
        return n;
    }
};

json row(const json& table, const std::string& bot) {
    for (const json& r : table["standings"])
        if (r["bot"] == bot) return r;
    return json();
}

}  // namespace

TEST_CASE("league e2e: the expected table, then an unchanged re-run plays nothing") {
    LeagueFixture f;
    json t = f.league("results");
    CHECK(t["games"]["total"] == 12);
    CHECK(t["games"]["played"] == 12);
    CHECK(t["games"]["reused"] == 0);
    // block and cblock never meet (draws) and beat the two passive bots, which draw each other.
    for (const char* b : {"block", "cblock"}) {
        CAPTURE(b);
        CHECK(row(t, b)["rank"] == 1);
        CHECK(row(t, b)["wins"] == 4);
        CHECK(row(t, b)["draws"] == 2);
        CHECK(row(t, b)["losses"] == 0);
        CHECK(row(t, b)["points"] == 6);
    }
    for (const char* b : {"idle", "nap"}) {
        CAPTURE(b);
        CHECK(row(t, b)["rank"] == 3);
        CHECK(row(t, b)["losses"] == 4);
        CHECK(row(t, b)["points"] == 2);
    }
    CHECK(f.stored("results") == 12);
    CHECK(fs::exists(f.root.path() / "results" / "league.json"));

    json again = f.league("results");
    CHECK(again["games"]["played"] == 0);
    CHECK(again["games"]["reused"] == 12);
    CHECK(again["standings"] == t["standings"]);

    RunOutcome table = f.runner({"table", "--results", (f.root.path() / "results").string(), "--format", "json"});
    CHECK(table.exit_status == 0);
    CHECK(json::parse(table.out)["standings"] == t["standings"]);
    RunOutcome csv = f.runner({"table", "--results", (f.root.path() / "results").string(), "--format", "csv"});
    CHECK(csv.out.rfind("rank,bot,played,wins,draws,losses,points,forfeits,mean_cells,sandboxed,excluded,elo,elo_interval,"
                          "los_next,mean_move_ms,max_move_ms,mean_cpu_ms,timeouts,near_timeouts\n", 0) == 0);
    CHECK(std::count(csv.out.begin(), csv.out.end(), '\n') == 5);

    // One store through each change in turn (subcases would play the league again for each).
    // A changed bot replays only its own games.
    std::ofstream(f.bots / "idle.sh", std::ios::app) << "# changed\n";
    json changed = f.league("results");
    CHECK(changed["games"]["played"] == 6);
    CHECK(changed["games"]["reused"] == 6);

    // A removed bot drops out of the table; the others' games are all stored.
    fs::remove(f.bots / "nap.sh");
    json fewer = f.league("results");
    CHECK(fewer["standings"].size() == 3);
    CHECK(fewer["games"]["total"] == 6);
    CHECK(fewer["games"]["played"] == 0);
    CHECK(row(fewer, "nap").is_null());
}

TEST_CASE("league e2e: table --scoring ranks the stored games by another scoring, and leaves the store as it was") {
    LeagueFixture f;
    json wins = f.league("results");
    const fs::path dir = f.root.path() / "results";
    const std::string index = read_text(dir / "league.json");
    RunOutcome r = f.runner({"table", "--results", dir.string(), "--scoring", "points", "--format", "json"});
    INFO("stderr: " << r.err);
    REQUIRE(r.exit_status == 0);
    json points = json::parse(r.out);
    CHECK(points["scoring"] == "points");
    CHECK(wins["scoring"] == "wins");
    // Three a win, one a draw: 4 wins and 2 draws make 14; the passive bots' 2 draws make 2.
    CHECK(row(points, "block")["points"] == 14);
    CHECK(row(points, "cblock")["points"] == 14);
    CHECK(row(points, "idle")["points"] == 2);
    CHECK(row(points, "block")["wins"] == row(wins, "block")["wins"]);
    CHECK(read_text(dir / "league.json") == index);

    r = f.runner({"table", "--results", dir.string(), "--scoring", "goals"});
    CHECK(r.exit_status == 2);
    CHECK(r.err.find("--scoring") != std::string::npos);
}

TEST_CASE("league e2e: time per bot in the stored records and the table, timeouts counted") {
    LeagueFixture f;
    fs::copy(fs::path(TEST_BOTS_DIR) / "hang.sh", f.bots / "hang.sh");
    fs::remove(f.bots / "nap.sh");
    fs::remove(f.bots / "cblock.cpp");
    std::vector<std::string> args = f.league_args("results");
    args.back() = "300";  // the time limit: hang times out on every move
    args.push_back("--quiet");
    RunOutcome r = f.runner(args);
    INFO("stderr: " << r.err);
    REQUIRE(r.exit_status == 0);
    // The bots in trouble with time are named at the end, --quiet or not: a warning, not progress.
    CHECK(testing::contains(r.err, "league: hang forfeited every one of its "));
    CHECK(!testing::contains(r.err, "league: block "));
    const json t = json::parse(r.out);
    for (const char* b : {"block", "idle", "hang"}) {
        CAPTURE(b);
        const json time = row(t, b)["time"];
        REQUIRE(time.is_object());
        CHECK(time["moves"].get<int>() > 0);
        // Every move's CPU time is known: the plain shell bots' and the warm python's.
        CHECK(time["cpu_moves"] == time["moves"]);
        CHECK(time["max_move_ms"].get<double>() > 0);
    }
    CHECK(row(t, "hang")["time"]["timeouts"] == row(t, "hang")["time"]["moves"]);
    CHECK(row(t, "hang")["time"]["timeouts"] == row(t, "hang")["forfeits"]);
    CHECK(row(t, "block")["time"]["timeouts"] == 0);

    // Each stored record keeps both seats' times, and when the game started and how long it took,
    // as the table's game list does.
    for (const auto& entry : fs::directory_iterator(f.root.path() / "results" / "games")) {
        if (entry.path().extension() != ".json") continue;
        const json record = json::parse(read_text(entry.path()));
        REQUIRE(record["move_times"].size() == 2);
        CHECK(record["move_times"][0]["moves"].get<int>() > 0);
        CHECK(record["started"].get<std::string>().size() == 20);
        CHECK(record["duration_ms"].get<long long>() >= 0);
    }
    REQUIRE(t["game_list"].size() == t["games"]["stored"]);
    CHECK(t["game_list"][0]["started"].is_string());
    CHECK(t["game_list"][0]["duration_s"].is_number());

    RunOutcome text = f.runner({"table", "--results", (f.root.path() / "results").string(), "--format", "text"});
    CHECK(text.out.find("ms/move   max ms   cpu ms  t/o near") != std::string::npos);
    RunOutcome md = f.runner({"table", "--results", (f.root.path() / "results").string(), "--format", "markdown"});
    CHECK(md.out.find("| ms/move | Max ms | CPU ms/move | Timeouts/near |") != std::string::npos);
}

TEST_CASE("league e2e: killed with SIGKILL mid-run, a re-run completes to the same table with no game redone") {
    LeagueFixture f;
    f.add_gate("results");
    // Once the first game is stored, SIGKILL the runner, as kill -9 would.
    ProcessRegistry registry;
    RunOutcome killed;
    std::thread league = f.start_league("results", killed, &registry);
    registry.kill_all();
    league.join();
    REQUIRE(killed.kind == RunOutcome::Kind::signaled);
    CHECK(killed.signal == SIGKILL);
    const int before = f.stored("results");
    CHECK(before > 0);
    CHECK(before < 12);

    f.open_gate();
    json resumed = f.league("results");
    CHECK(resumed["games"]["reused"] == before);
    CHECK(resumed["games"]["played"] == 12 - before);
    CHECK(f.stored("results") == 12);

    json uninterrupted = f.league("reference");
    CHECK(testing::without_times(resumed["standings"]) == testing::without_times(uninterrupted["standings"]));
}

TEST_CASE("league e2e: Ctrl-C or SIGTERM mid-run stops the league with 128 + the signal, keeping its games for the next run") {
    for (const int signal : {SIGINT, SIGTERM}) {
        CAPTURE(signal);
        LeagueFixture f;
        f.add_gate("results");
        RunOutcome stopped;
        std::thread league = f.start_league("results", stopped);
        f.signal_runner(signal);
        league.join();
        INFO("stderr: " << stopped.err);
        REQUIRE(stopped.kind == RunOutcome::Kind::exited);
        CHECK(stopped.exit_status == 128 + signal);
        CHECK(stopped.out.empty());  // no table for a league that did not finish
        const int kept = f.stored("results");
        CHECK(kept > 0);
        CHECK(kept < 12);
        CHECK(stopped.err.find("league: interrupted; " + std::to_string(kept) + " of 12 games are stored") !=
              std::string::npos);

        f.open_gate();
        json resumed = f.league("results");
        CHECK(resumed["games"]["reused"] == kept);
        CHECK(resumed["games"]["played"] == 12 - kept);
    }
}

TEST_CASE("league e2e: a second league on a store in use is refused, and the store is left to the first") {
    LeagueFixture f;
    f.add_gate("results");
    RunOutcome first;
    std::thread league = f.start_league("results", first);
    RunOutcome second = f.runner(f.league_args("results"));
    CHECK(second.exit_status == 1);
    CHECK(second.err.find("is in use by another league run") != std::string::npos);
    CHECK(second.out.empty());

    f.open_gate();
    league.join();
    INFO("stderr: " << first.err);
    CHECK(first.exit_status == 0);
    CHECK(f.stored("results") == 12);
    // The lock ends with its run: the next one reuses every game.
    CHECK(f.league("results")["games"]["reused"] == 12);
}

TEST_CASE("league e2e: unusable bots are excluded with their reasons, the rest play") {
    LeagueFixture f;
    fs::remove(f.bots / "nap.sh");
    fs::create_directories(f.bots / "broken");
    std::ofstream(f.bots / "broken" / "bot.json") << "{\"run\": \"not a list\"}";
    std::ofstream(f.bots / "notes.dat") << "?";
    std::ofstream(f.bots / "fails.c") << "this is not C";
    fs::create_directories(f.bots / "ghost");
    std::ofstream(f.bots / "ghost" / "bot.json") << R"({"run": ["no-such-interpreter", "bot"]})";
    RunOutcome r = f.runner(f.league_args("results"));
    INFO("stderr: " << r.err);
    REQUIRE(r.exit_status == 0);
    json t = json::parse(r.out);
    CHECK(t["standings"].size() == 3);
    REQUIRE(t["excluded"].size() == 4);
    // Each reason names its bot once: the line's name, not the bot's path or name again.
    std::string all;
    for (const json& e : t["excluded"]) all += e["bot"].get<std::string>() + ": " + e["reason"].get<std::string>() + "\n";
    CHECK(all.find("broken: bot.json: \"run\" is \"not a list\", not a non-empty array") != std::string::npos);
    CHECK(all.find("notes.dat: cannot tell how to run") != std::string::npos);
    CHECK(all.find("fails: compiling fails.c failed") != std::string::npos);
    CHECK(all.find("ghost: no-such-interpreter is not installed") != std::string::npos);
    for (const std::string line : {"league: excluded broken: bot.json: ", "league: excluded notes.dat: cannot tell",
                                   "league: excluded fails: compiling fails.c failed",
                                   "league: excluded ghost: no-such-interpreter is not installed"})
        CHECK(r.err.find(line) != std::string::npos);
    const RunOutcome table = f.runner({"table", "--results", (f.root.path() / "results").string()});
    CHECK(table.out.find("excluded: ghost: no-such-interpreter is not installed") != std::string::npos);
}

TEST_CASE("league e2e: an exclusion's reason is cut, however long the stranger's text it quotes") {
    LeagueFixture f;
    fs::create_directories(f.bots / "verbose");
    // A build that fails after printing a line of 20000 characters, which the reason quotes.
    std::ofstream(f.bots / "verbose" / "bot.json")
        << R"({"build": "printf %020000d 0; exit 1", "run": ["sh", "bot.sh"]})";
    RunOutcome r = f.runner(f.league_args("results"));
    INFO("stderr: " << r.err);
    REQUIRE(r.exit_status == 0);
    const json t = json::parse(r.out);
    REQUIRE(t["excluded"].size() == 1);
    const std::string reason = t["excluded"][0]["reason"];
    CHECK(reason.size() <= 503);
    CHECK(reason.ends_with("..."));
    const json index = json::parse(testing::read_text(f.root.path() / "results" / "league.json"));
    CHECK(index.dump().size() < 20000);
}

// Staging happens when the roster is made, so a bot whose files cannot be copied for the sandbox
// is excluded there with its reason, and the league plays the others. The copies refused here are
// cached builds (made by an older runner, or tampered with): one holds a link out of the bot, the
// other folders 1500 deep, past PATH_MAX, which stopped the whole league when its first game
// staged it.
TEST_CASE("league e2e: a bot whose files cannot be staged is excluded, and the others play") {
    if (!Sandbox::find_bubblewrap()) return;
    LeagueFixture f;
    f.cache = f.root.path() / "cache";  // planted into: this fixture's own
    fs::remove(f.bots / "cblock.cpp");
    fs::remove(f.bots / "nap.sh");
    auto plant = [&](const std::string& name) {
        const fs::path bot = f.bots / name;
        fs::create_directories(bot);
        std::ofstream(bot / "bot.json") << R"({"run": ["sh", "run.sh"], "build": "true"})";
        std::ofstream(bot / "run.sh") << "echo '[]' # " << name << "\n";
        const fs::path built = f.cache / "builds" / hash_directory(bot);
        fs::create_directories(built);
        fs::copy(bot, built, fs::copy_options::recursive);
        return built;
    };
    fs::create_symlink("/etc/shadow", plant("linked") / "shadow");
    {
        UniqueFd at(::open(plant("deep").c_str(), O_RDONLY | O_DIRECTORY));
        for (int i = 0; i < 1500; ++i) {
            REQUIRE(::mkdirat(at.get(), "dd", 0700) == 0);
            at = UniqueFd(::openat(at.get(), "dd", O_RDONLY | O_DIRECTORY));
        }
    }

    std::vector<std::string> args = f.league_args("results");
    args.erase(std::find(args.begin(), args.end(), "--no-sandbox"));
    RunOutcome r = f.runner(args);
    INFO("stderr: " << r.err);
    REQUIRE(r.exit_status == 0);
    json t = json::parse(r.out);
    CHECK(t["standings"].size() == 2);
    CHECK(t["games"]["played"] == 2);
    REQUIRE(t["excluded"].size() == 2);
    std::map<std::string, std::string> reasons;
    for (const json& e : t["excluded"]) reasons[e["bot"]] = e["reason"];
    CHECK(reasons["linked"] ==
          "its files cannot be copied for the sandbox: shadow: a link that leads out of the folder (to /etc/shadow): "
          "links must point within it");
    CHECK(reasons["deep"] == "its files cannot be copied for the sandbox: folders nested more than 100 deep");
}

TEST_CASE("league e2e: table on a store a league is playing into says so, and shows the games so far") {
    LeagueFixture f;
    f.league("results");
    const fs::path results = f.root.path() / "results";
    // Two games not played yet, as a league running now would have them.
    int removed = 0;
    for (const auto& entry : fs::directory_iterator(results / "games"))
        if (removed < 2 && entry.path().extension() == ".json") removed += fs::remove(entry.path());
    const std::vector<std::string> table = {"table", "--results", results.string(), "--format", "json"};
    const std::string note =
        "table: a league is still playing into this store: 10 of 12 games recorded; the table shows the games so far\n";
    {
        ResultsStore league(results);
        RunOutcome r = f.runner(table);
        CHECK(r.exit_status == 0);
        CHECK(r.err == note);
        CHECK(json::parse(r.out)["games"]["total"] == 12);
    }
    // Games played with --game share the store and are no league; a finished league holds nothing.
    {
        ResultsStore one_game(results, StoreUse::one_game);
        CHECK(f.runner(table).err.empty());
    }
    RunOutcome r = f.runner(table);
    CHECK(r.exit_status == 0);
    CHECK(r.err.empty());
}

TEST_CASE("league e2e: bad settings exit 2 naming the problem") {
    LeagueFixture f;
    RunOutcome r = f.runner({"league", f.bots.string(), "--games-per-pair", "3"});
    CHECK(r.exit_status == 2);
    CHECK(r.err.find("--games-per-pair") != std::string::npos);
    r = f.runner({"league", (f.root.path() / "nowhere").string()});
    CHECK(r.exit_status == 2);
    CHECK(r.err.find("nowhere") != std::string::npos);
    std::ofstream(f.root.path() / "t.json") << R"({"bots": "bots", "widht": 3})";
    r = f.runner({"league", "--tournament", (f.root.path() / "t.json").string()});
    CHECK(r.exit_status == 2);
    CHECK(r.err.find("unknown key \"widht\"") != std::string::npos);
    r = f.runner({"table", "--results", (f.root.path() / "empty").string()});
    CHECK(r.exit_status == 2);
}

TEST_CASE("league e2e: a tournament file supplies settings, flags override, results go beside it") {
    LeagueFixture f;
    fs::remove(f.bots / "nap.sh");
    std::ofstream(f.root.path() / "cup.json")
        << R"({"bots": "bots", "width": 20, "height": 20, "generations": 10, "games_per_pair": 4, "scoring": "points"})";
    RunOutcome r = f.runner({"league", "--tournament", (f.root.path() / "cup.json").string(), "--cache",
                             f.cache.string(), "--games-per-pair", "2", "--format", "json"});
    REQUIRE(r.exit_status == 0);
    json t = json::parse(r.out);
    CHECK(t["games"]["total"] == 6);
    CHECK(t["scoring"] == "points");
    CHECK(row(t, "block")["points"] == 3 * 2 + 1 * 2);
    CHECK(fs::exists(f.root.path() / "cup" / "league.json"));
}

TEST_CASE("league e2e: a tournament file carries the league's flags too: jobs, sandbox, format, until_separated") {
    LeagueFixture f;
    fs::remove(f.bots / "nap.sh");
    fs::remove(f.bots / "cblock.cpp");
    std::ofstream(f.root.path() / "cup.json")
        << R"({"bots": "bots", "width": 20, "height": 20, "generations": 10, "jobs": 1, "sandbox": false,
               "cold": true, "format": "markdown", "until_separated": 4})";
    RunOutcome r = f.runner({"league", "--tournament", (f.root.path() / "cup.json").string(), "--cache", f.cache.string()});
    INFO("stderr: " << r.err);
    REQUIRE(r.exit_status == 0);
    CHECK(r.out.starts_with("| Rank | Bot |"));  // "format": "markdown"
    CHECK(r.out.find("Sandboxed: no (bots ran without a sandbox)") != std::string::npos);  // "sandbox": false
    CHECK(r.err.find("league: --until-separated: ") != std::string::npos);
    // A flag wins over its key; `table --tournament` takes the file's format.
    r = f.runner({"league", "--tournament", (f.root.path() / "cup.json").string(), "--cache", f.cache.string(),
                  "--format", "json"});
    REQUIRE(r.exit_status == 0);
    CHECK(json::parse(r.out)["sandboxed"] == false);
    r = f.runner({"table", "--tournament", (f.root.path() / "cup.json").string()});
    CHECK(r.out.starts_with("| Rank | Bot |"));
}

TEST_CASE("league e2e: a league with a start-up limit and time mode of its own reads its store back") {
    LeagueFixture f;
    fs::remove(f.bots / "cblock.cpp");
    std::vector<std::string> args = f.league_args("results");
    for (const char* extra : {"--startup-limit", "5000", "--time-mode", "cpu"}) args.push_back(extra);
    RunOutcome r = f.runner(args);
    INFO("stderr: " << r.err);
    REQUIRE(r.exit_status == 0);  // the table is made from the store, whose keys hold both
    CHECK(json::parse(r.out)["games"]["played"] == 6);
    r = f.runner(args);
    REQUIRE(r.exit_status == 0);
    CHECK(json::parse(r.out)["games"]["played"] == 0);
    CHECK(f.runner({"table", "--results", (f.root.path() / "results").string()}).exit_status == 0);
}

TEST_CASE("league e2e: the leaderboard page is there after the first game, while the league still plays") {
    LeagueFixture f;
    f.add_gate("results");
    RunOutcome outcome;
    std::atomic<bool> finished = false;
    std::thread league([&] {
        outcome = f.runner(f.league_args("results"), std::chrono::seconds(120));
        finished = true;
    });
    const fs::path page = f.root.path() / "results" / "leaderboard.html";
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (!fs::exists(page) && std::chrono::steady_clock::now() < give_up)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    // The gate holds the league until it is opened: the page is one written after a game.
    CHECK(fs::exists(page));
    CHECK_FALSE(finished);
    CHECK(read_text(page).find("block") != std::string::npos);
    f.open_gate();
    league.join();
    CHECK(outcome.exit_status == 0);
}

TEST_CASE("league e2e: leaderboard.html and a viewer page for every game, table --format html, names escaped") {
    LeagueFixture f;
    fs::remove(f.bots / "nap.sh");
    fs::create_directories(f.bots / "evil");
    fs::copy(fs::path(TEST_BOTS_DIR) / "block.py", f.bots / "evil" / "bot.py");
    std::ofstream(f.bots / "evil" / "bot.json") << R"({"name": "<script>alert(1)</script>", "run": ["python3", "bot.py"]})";
    json t = f.league("results");
    REQUIRE(t["standings"].size() == 4);
    const fs::path dir = f.root.path() / "results";
    const std::string page = read_text(dir / "leaderboard.html");
    CHECK(page.find("<script>alert(1)</script>") == std::string::npos);
    CHECK(page.find("&lt;script&gt;alert(1)&lt;/script&gt;") != std::string::npos);
    int links = 0;
    for (const auto& entry : fs::directory_iterator(dir / "games")) {
        const std::string key = entry.path().stem().string();
        CHECK(fs::exists(dir / "viewers" / (key + ".html")));
        links += page.find("href=\"viewers/" + key + ".html\"") != std::string::npos;
    }
    CHECK(links == 12);

    // A store from before viewer pages: the next run makes the missing ones, counting by playing
    // the replays again, to the same pages as the games' own counts made.
    std::map<fs::path, std::string> pages;
    for (const auto& entry : fs::directory_iterator(dir / "viewers")) pages[entry.path()] = read_text(entry.path());
    fs::remove_all(dir / "viewers");
    f.league("results");
    CHECK(std::distance(fs::directory_iterator(dir / "viewers"), fs::directory_iterator()) == 12);
    for (const auto& [path, text] : pages) CHECK(read_text(path) == text);

    RunOutcome r = f.runner({"table", "--results", dir.string(), "--format", "html"});
    CHECK(r.exit_status == 0);
    // The same page but for the time it was written.
    const std::regex written("<p id=\"written\">[^<]*</p>");
    CHECK(page.find("<h1 id=\"tournament\">results</h1>") != std::string::npos);
    CHECK(std::regex_replace(r.out, written, "") == std::regex_replace(page, written, ""));
}
