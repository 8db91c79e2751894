// A tournament file's "repositories" (docs/league.md, "Bots from git repositories"): read
// strictly, each bad value named.
#include "runner/league/tournament.hpp"

#include <doctest/doctest.h>

#include <string>

using namespace gol::runner;

namespace {

std::string error(const std::string& text) {
    try {
        parse_tournament(text, "cup/t.json");
    } catch (const TournamentError& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("tournament: repositories with their names, URLs and branches (main by default)") {
    const Tournament t = parse_tournament(R"({"repositories": [
        {"name": "alice", "url": "https://github.com/alice/life.git"},
        {"name": "bob", "url": "ssh://git@example.org/bob/bot.git", "branch": "contest-2016"}]})",
                                          "cup/t.json");
    REQUIRE(t.repositories);
    CHECK(*t.repositories == std::vector<TournamentRepository>{
                                 {"alice", "https://github.com/alice/life.git", "main"},
                                 {"bob", "ssh://git@example.org/bob/bot.git", "contest-2016"}});
    CHECK_FALSE(parse_tournament("{}", "cup/t.json").repositories);
}

TEST_CASE("tournament: a bad repository is refused, naming its place, the key and why") {
    CHECK(error(R"({"repositories": {"name": "a"}})") ==
          R"(cup/t.json: "repositories" is {"name":"a"}, not a list of {"name": ..., "url": ..., "branch": ...})");
    CHECK(error(R"({"repositories": ["https://x/a.git"]})") ==
          R"(cup/t.json: "repositories"[0] is "https://x/a.git", not an object {"name": ..., "url": ..., "branch": ...})");
    CHECK(error(R"({"repositories": [{"name": "a", "url": "https://x/a", "ref": "main"}]})") ==
          R"(cup/t.json: "repositories"[0]: unknown key "ref" (allowed: name, url, branch))");
    CHECK(error(R"({"repositories": [{"name": "a", "url": 3}]})") == R"(cup/t.json: "repositories"[0]: "url" is 3, not a string)");
    CHECK(error(R"({"repositories": [{"name": "a", "url": "ext::sh -c touch% /tmp/x"}]})") ==
          R"(cup/t.json: "repositories"[0]: "url": a transport helper ("ext::"): git would run a program; only https://, git:// and ssh:// are fetched)");
    CHECK(error(R"({"repositories": [{"name": "a", "url": "http://x/a"}]})") ==
          R"(cup/t.json: "repositories"[0]: "url": not an https://, git:// or ssh:// URL (write ssh://user@host/path for ssh))");
    CHECK(error(R"({"repositories": [{"name": "a", "url": "https://x/a", "branch": "--upload-pack=x"}]})")
              .starts_with(R"(cup/t.json: "repositories"[0]: "branch": not a branch name)"));
    CHECK(error(R"({"repositories": [{"url": "https://x/a"}]})")
              .starts_with(R"(cup/t.json: "repositories"[0]: "name": not a bot's name)"));
    CHECK(error(R"({"repositories": [{"name": "../a", "url": "https://x/a"}]})")
              .starts_with(R"(cup/t.json: "repositories"[0]: "name": not a bot's name)"));
    CHECK(error(R"({"repositories": [{"name": "a", "url": "https://x/a"}, {"name": "a", "url": "https://x/b"}]})") ==
          R"(cup/t.json: "repositories"[1]: "name": a is listed twice)");
    // file:// is read (the tests' repositories); whether it is fetched is runner import's flag.
    CHECK(error(R"({"repositories": [{"name": "a", "url": "file:///srv/a.git"}]})").empty());
}
