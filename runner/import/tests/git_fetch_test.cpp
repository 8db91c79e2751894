// Fetching bots from git repositories (git_fetch.hpp): local bare repositories made by each test
// in a folder of its own, no network.
#include "runner/import/git_fetch.hpp"

#include "runner/sys/temp_dir.hpp"
#include "runner/testing/local_repository.hpp"
#include "runner/testing/runner_fixture.hpp"

#include <doctest/doctest.h>

#include <filesystem>

using namespace gol::runner;
using gol::runner::testing::contains;
using gol::runner::testing::LocalRepository;
using gol::runner::testing::read_text;
namespace fs = std::filesystem;

namespace {

const char* kBot = "import json, sys\nprint('[]')\n";
const char* kManifest = R"({"run": ["python3", "bot.py"]})";

struct Fixture {
    TempDir root{"git-fetch-test"};
    fs::path bots = root.path() / "bots";
    LocalRepository repo{root.path(), "alice"};
    GitOptions options{.allow_file = true};

    GitFetch fetch(const std::string& branch = "main") { return fetch_git_bot({"alice", repo.url(), branch}, bots, options); }
};

}  // namespace

TEST_CASE("git fetch: a branch's last commit becomes a bot folder, its state beside the bots") {
    Fixture f;
    const std::string first = f.repo.commit({{"bot.py", kBot}, {"bot.json", kManifest}});
    GitFetch r = f.fetch();
    INFO(r.detail);
    CHECK(r.status == GitStatus::imported);
    CHECK(r.commit == first);
    CHECK(read_text(f.bots / "alice" / "bot.py") == kBot);
    CHECK_FALSE(fs::exists(f.bots / "alice" / ".git"));
    const std::optional<RepositoryState> state = read_repository_state(f.bots, "alice");
    REQUIRE(state);
    CHECK(state->commit == first);
    CHECK(state->url == f.repo.url());
    CHECK(state->branch == "main");
    CHECK(state->error.empty());
    // Nothing else in the bots folder: the work folder went with the fetch.
    std::vector<std::string> entries;
    for (const auto& e : fs::directory_iterator(f.bots)) entries.push_back(e.path().filename().string());
    std::sort(entries.begin(), entries.end());
    CHECK(entries == std::vector<std::string>{".repositories", "alice"});

    CHECK(f.fetch().status == GitStatus::unchanged);
    const std::string second = f.repo.commit({{"bot.py", "print('[[1, 1]]')\n"}});
    r = f.fetch();
    CHECK(r.status == GitStatus::updated);
    CHECK(r.commit == second);
    CHECK(read_text(f.bots / "alice" / "bot.py") == "print('[[1, 1]]')\n");
    CHECK(read_repository_state(f.bots, "alice")->commit == second);
}

TEST_CASE("git fetch: a failed fetch keeps the folder at its last commit, and its state says why") {
    Fixture f;
    const std::string first = f.repo.commit({{"bot.py", kBot}, {"bot.json", kManifest}});
    REQUIRE(f.fetch().status == GitStatus::imported);
    fs::remove_all(f.repo.bare());
    const GitFetch r = f.fetch();
    CHECK(r.status == GitStatus::failed);
    CHECK(r.commit == first);
    CHECK(contains(r.detail, "git fetch failed: "));
    CHECK(contains(r.detail, "does not appear to be a git repository"));
    CHECK(read_text(f.bots / "alice" / "bot.py") == kBot);
    const std::optional<RepositoryState> state = read_repository_state(f.bots, "alice");
    REQUIRE(state);
    CHECK(state->commit == first);
    CHECK(state->error == r.detail);
    CHECK_FALSE(state->failed.empty());

    // A branch the repository does not have fails the same way.
    LocalRepository other(f.root.path(), "bob");
    other.commit({{"bot.py", kBot}});
    const GitFetch missing = fetch_git_bot({"bob", other.url(), "dev"}, f.bots, f.options);
    CHECK(missing.status == GitStatus::failed);
    CHECK(missing.commit.empty());
    CHECK(contains(missing.detail, "couldn't find remote ref refs/heads/dev"));
    CHECK_FALSE(fs::exists(f.bots / "bob"));
}

TEST_CASE("git fetch: a link in the repository is checked out as a file holding its target, never followed") {
    Fixture f;
    f.repo.commit({{"bot.py", kBot}, {"bot.json", kManifest}});
    fs::create_symlink("/etc/passwd", f.root.path() / "alice.work" / "secret");
    f.repo.commit({});
    REQUIRE(f.fetch().status == GitStatus::imported);
    CHECK(fs::is_regular_file(fs::symlink_status(f.bots / "alice" / "secret")));
    CHECK(read_text(f.bots / "alice" / "secret") == "/etc/passwd");
}

TEST_CASE("git fetch: a commit with a path out of its folder (\"..\", \".git\") is refused as it arrives") {
    for (const char* entry : {"..", ".git", ".GIT"}) {
        INFO(entry);
        Fixture f;
        // Made object by object: git's own commands never make such a tree.
        const std::string dir = "--git-dir=" + f.repo.bare().string();
        auto id = [](std::string out) { return out.substr(0, out.find('\n')); };
        const std::string blob = id(f.repo.git({dir, "hash-object", "-w", "--stdin"}, "print('[]')\n"));
        const std::string inner = id(f.repo.git({dir, "mktree"}, "100644 blob " + blob + "\tconfig\n"));
        const std::string tree =
            id(f.repo.git({dir, "mktree"}, "040000 tree " + inner + "\t" + entry + "\n100644 blob " + blob + "\tbot.py\n"));
        const std::string commit = id(f.repo.git({dir, "commit-tree", tree, "-m", "evil"}));
        f.repo.git({dir, "update-ref", "refs/heads/main", commit});
        const GitFetch r = f.fetch();
        CHECK(r.status == GitStatus::failed);
        CHECK(contains(r.detail, "git fetch failed: object "));
        CHECK_FALSE(fs::exists(f.bots / "alice"));
        CHECK_FALSE(fs::exists(f.bots / "config"));
    }
}

TEST_CASE("git fetch: a fetch that writes over its size limit is stopped, and says so") {
    Fixture f;
    // Bytes that do not compress: a pack of them is as large.
    std::string noise(200'000, '\0');
    std::uint64_t x = 88172645463325252ULL;
    for (char& c : noise) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        c = static_cast<char>(x);
    }
    f.repo.commit({{"bot.py", kBot}, {"noise.bin", noise}});
    f.options.max_fetch_bytes = 64 << 10;
    const GitFetch r = f.fetch();
    CHECK(r.status == GitStatus::failed);
    CHECK(r.detail == "git fetch wrote a file over the 64 KiB a fetch may write; stopped");
    CHECK_FALSE(fs::exists(f.bots / "alice"));
}

TEST_CASE("git fetch: a folder that came from no repository is never replaced") {
    Fixture f;
    f.repo.commit({{"bot.py", kBot}});
    fs::create_directories(f.bots / "alice");
    std::ofstream(f.bots / "alice" / "mine.txt") << "the host's";
    const GitFetch r = f.fetch();
    CHECK(r.status == GitStatus::failed);
    CHECK(contains(r.detail, "came from no repository: give the bot another name"));
    CHECK(read_text(f.bots / "alice" / "mine.txt") == "the host's");
}

TEST_CASE("git fetch: hostile URLs, branches and names are refused before git runs") {
    for (const char* url : {"ext::sh -c touch% /tmp/pwned", "ext::sh", "fd::3", "-uhttps://x/y", "--upload-pack=touch x",
                            "http://example.org/a.git", "/srv/a.git", "user@host:a.git", "https://", "ssh://-oProxyCommand=x/a",
                            "https://example.org/a b"}) {
        INFO(url);
        CHECK(refused_git_url(url, true));
    }
    CHECK(contains(*refused_git_url("ext::sh -c touch% /tmp/pwned", true), "a transport helper (\"ext::\")"));
    CHECK(contains(*refused_git_url("file:///srv/a.git", false), "allowed only with --allow-file-urls"));
    for (const char* url : {"https://github.com/alice/life.git", "git://host/a", "ssh://git@host/a.git", "https://[::1]/a"})
        CHECK_FALSE(refused_git_url(url, false));
    CHECK_FALSE(refused_git_url("file:///srv/a.git", true));

    for (const char* branch : {"", "-x", "a..b", "a b", "/a", "a/", ".a", "a.lock", "a//b", "a/.b", "a~1", "a:b"}) {
        INFO(branch);
        CHECK(refused_branch(branch));
    }
    CHECK_FALSE(refused_branch("release/2016-v2"));
    for (const char* name : {"", ".hidden", "-x", "a/b", "..", "a b"}) CHECK(refused_bot_name(name));
    CHECK(bot_name_from_url("https://github.com/alice/life.git") == "life");
    CHECK(bot_name_from_url("ssh://git@host/alice/life/") == "life");
    CHECK(bot_name_from_url("https://host/.git").empty());
    CHECK(bot_name_from_url("https://example.org/").empty());
    CHECK(bot_name_from_url("file:///srv/git/alice.git") == "alice");

    // fetch_git_bot checks too: nothing is made.
    TempDir root("git-fetch-test");
    CHECK_THROWS_AS(fetch_git_bot({"x", "ext::sh -c touch% " + (root.path() / "pwned").string(), "main"}, root.path() / "bots",
                                  GitOptions{.allow_file = true}),
                    std::invalid_argument);
    CHECK_FALSE(fs::exists(root.path() / "pwned"));
    CHECK_FALSE(fs::exists(root.path() / "bots"));
}
