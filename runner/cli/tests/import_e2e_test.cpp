// End to end: `runner import --from` a saved API response (runner/import/tests/answers), the
// table it prints, importing again, and `runner check` on what it wrote.
#include "runner/sandbox/sandbox.hpp"
#include "runner/testing/runner_fixture.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

using namespace gol::runner;
using gol::runner::testing::contains;
namespace fs = std::filesystem;

namespace {

const std::string kSaved = std::string(IMPORT_ANSWERS_DIR) + "/six_languages.json";

struct Fixture : testing::RunnerFixture {
    RunOutcome run_import(std::vector<std::string> extra) {
        std::vector<std::string> args = {"import", "--bots", bots.string()};
        args.insert(args.end(), extra.begin(), extra.end());
        return runner(args);
    }
};

}  // namespace

TEST_CASE("import e2e: a saved response becomes bot folders, a table says what became of each answer") {
    Fixture f;
    RunOutcome r = f.run_import({"--from", kSaved});
    INFO("stdout: " << r.out << "stderr: " << r.err);
    REQUIRE(r.exit_status == 0);
    CHECK(contains(r.out, "import: 11 answers from " + kSaved + " into " + f.bots.string() + "\n"));
    CHECK(contains(r.out, "  status     answer     bot            detail\n"));
    CHECK(contains(r.out, "  imported   90001      RandomGliders  Python 3\n"));
    CHECK(contains(r.out, "  imported   90009      StillLife      Bash\n"));
    CHECK(contains(r.out, "  skipped    90006      -              no code block\n"));
    CHECK(contains(r.out, "  imported   90011      Blocky90011    Python 3; the name Blocky is taken by answer 90002\n"));
    CHECK(contains(r.out, "import: 7 imported, 0 updated, 0 unchanged, 4 skipped\n"));
    CHECK(fs::exists(f.bots / "Farmer" / "bot.cpp"));

    r = f.run_import({"--from", kSaved});
    CHECK(r.exit_status == 0);
    CHECK(contains(r.out, "  unchanged  90001      RandomGliders  Python 3\n"));
    CHECK(contains(r.out, "import: 0 imported, 0 updated, 7 unchanged, 4 skipped\n"));

    // An imported bot passes the check a league's bots pass, sandboxed where bubblewrap works.
    for (const char* bot : {"RandomGliders", "Blinker"}) {
        std::vector<std::string> args = {"check", (f.bots / bot).string(), "--cache", f.cache.string(), "--runs", "1",
                                         "--width", "20", "--height", "20"};
        if (!Sandbox::find_bubblewrap()) args.push_back("--no-sandbox");
        RunOutcome checked = f.runner(args);
        INFO(bot << ": " << checked.out << checked.err);
        CHECK(checked.exit_status == 0);
        CHECK(contains(checked.out, "OK: every reply was valid"));
    }
}

TEST_CASE("import e2e: --dry-run prints the table and writes nothing") {
    Fixture f;
    RunOutcome r = f.run_import({"--from", kSaved, "--dry-run"});
    CHECK(r.exit_status == 0);
    CHECK(contains(r.out, "(dry run: nothing is written)\n"));
    CHECK(contains(r.out, "  imported   90007      Farmer         C++\n"));
    CHECK(contains(r.out, "import: 7 imported, 0 updated, 0 unchanged, 4 skipped (dry run)\n"));
    CHECK_FALSE(fs::exists(f.bots));
}

TEST_CASE("import e2e: --tournament writes into the tournament's bots folder, as nightly --import does") {
    Fixture f;
    std::ofstream(f.root.path() / "cup.json") << R"({"bots": "entries", "width": 20, "height": 20})";
    RunOutcome r = f.runner({"import", "--from", kSaved, "--tournament", (f.root.path() / "cup.json").string()});
    INFO("stdout: " << r.out << "stderr: " << r.err);
    CHECK(r.exit_status == 0);
    CHECK(fs::exists(f.root.path() / "entries" / "LineDot" / "bot.js"));
    r = f.runner({"import", "--from", kSaved, "--tournament", (f.root.path() / "cup.json").string(), "--bots", "x"});
    CHECK(r.exit_status == 2);
    std::ofstream(f.root.path() / "bad.json") << R"({"bots": 3})";
    r = f.runner({"import", "--from", kSaved, "--tournament", (f.root.path() / "bad.json").string()});
    CHECK(r.exit_status == 2);
    CHECK(contains(r.err, "bad.json"));
}

TEST_CASE("import e2e: bad input is named, exit status 2") {
    Fixture f;
    RunOutcome r = f.run_import({});
    CHECK(r.exit_status == 2);
    CHECK(contains(r.err, "import needs one of --from FILE, --question ID, --git URL or --repositories (with --tournament)"));
    r = f.runner({"import", "--from", kSaved});
    CHECK(r.exit_status == 2);
    CHECK(contains(r.err, "import needs either --bots DIR or --tournament FILE"));
    CHECK(f.run_import({"--from", kSaved, "--question", "5"}).exit_status == 2);
    r = f.run_import({"--from", (f.root.path() / "missing.json").string()});
    CHECK(r.exit_status == 2);
    CHECK(contains(r.err, "missing.json: cannot be read"));
    std::ofstream(f.root.path() / "page.html") << "<html>a page, not the API</html>";
    r = f.run_import({"--from", (f.root.path() / "page.html").string()});
    CHECK(r.exit_status == 2);
    CHECK(contains(r.err, "page.html: not JSON"));
    r = f.run_import({"--question", "5", "--site", "code golf"});
    CHECK(r.exit_status == 2);
    CHECK(contains(r.err, "--site code golf: a Stack Exchange site's API name, such as codegolf"));
    CHECK(f.run_import({"--question", "-3"}).exit_status == 2);
    std::ofstream(f.root.path() / "a-file") << "x";
    r = f.runner({"import", "--from", kSaved, "--bots", (f.root.path() / "a-file").string()});
    CHECK(r.exit_status == 2);
    CHECK(contains(r.err, "a-file: not a folder"));
}

TEST_CASE("import e2e: one answer that cannot be a folder is its row alone, and linked records are not read") {
    Fixture f;
    const nlohmann::json long_java = {
        {"answer_id", 95000}, {"question_id", 111111}, {"score", 1}, {"last_activity_date", 1468300000},
        {"owner", {{"display_name", "J"}}},
        {"body", "<h1>Java, Long</h1><pre><code>public class " + std::string(300, 'J') + " {}</code></pre>"}};
    nlohmann::json saved = nlohmann::json::parse(testing::read_text(kSaved));
    saved["items"].push_back(long_java);
    const fs::path from = f.root.path() / "with_long_java.json";
    std::ofstream(from) << saved.dump();
    RunOutcome r = f.run_import({"--from", from.string()});
    INFO("stdout: " << r.out << "stderr: " << r.err);
    CHECK(r.exit_status == 0);
    CHECK(contains(r.out, "  skipped    95000      -              its Java class's name, 300 letters, is too long"));
    CHECK(contains(r.out, "import: 7 imported, 0 updated, 0 unchanged, 5 skipped\n"));
    CHECK(fs::exists(f.bots / "Farmer" / "bot.cpp"));

    // A record that is a link to a file without end, or one that blocks, is no record: passed over at once.
    for (const char* target : {"/proc/self/pagemap", "/proc/kmsg"}) {
        const fs::path folder = f.bots / ("Linked" + fs::path(target).filename().string());
        fs::create_directories(folder);
        fs::create_symlink(target, folder / "answer.json");
    }
    r = f.run_import({"--from", from.string(), "--dry-run"});
    CHECK(r.exit_status == 0);
    CHECK(contains(r.out, "import: 0 imported, 0 updated, 7 unchanged, 5 skipped (dry run)\n"));
}

TEST_CASE("import e2e: --git's bad input is named with exit status 2, and a failed fetch exits 1") {
    Fixture f;
    const std::string gone = "file://" + (f.root.path() / "gone.git").string();
    RunOutcome r = f.run_import({"--git", gone, "--from", kSaved});
    CHECK(r.exit_status == 2);
    r = f.run_import({"--git", gone, "--dry-run", "--allow-file-urls"});
    CHECK(r.exit_status == 2);
    CHECK(contains(r.err, "--dry-run and --prune are for answers, not for --git or --repositories"));
    r = f.run_import({"--repositories"});
    CHECK(r.exit_status == 2);
    CHECK(contains(r.err, "--repositories fetches those a tournament file lists: give --tournament FILE"));
    r = f.run_import({"--branch", "dev"});
    CHECK(r.exit_status == 2);
    CHECK(contains(r.err, "--branch requires --git"));
    r = f.run_import({"--git", "https://example.org/", "--allow-file-urls"});
    CHECK(r.exit_status == 2);
    CHECK(contains(r.err, "its name cannot be told from the URL; give --name"));
    r = f.run_import({"--git", "ssh://host/a.git", "--name", "../up"});
    CHECK(r.exit_status == 2);
    CHECK(contains(r.err, "--name ../up: not a bot's name"));
    CHECK_FALSE(fs::exists(f.bots));

    // A repository that is not there: its row says why, the command fails, no bot is written.
    r = f.run_import({"--git", gone, "--name", "ghost", "--allow-file-urls"});
    INFO("stdout: " << r.out << "stderr: " << r.err);
    CHECK(r.exit_status == 1);
    CHECK(contains(r.out, "  failed     ghost  -             git fetch failed: "));
    CHECK(contains(r.out, "does not appear to be a git repository; no commit fetched yet\n"));
    CHECK(contains(r.out, "import: 0 imported, 0 updated, 0 unchanged, 1 failed\n"));
    CHECK_FALSE(fs::exists(f.bots / "ghost"));
}
