// The Stack Exchange API's answers responses: saved pages (runner/import/tests/answers, written for
// these tests), their errors, and fetching every page through a substituted fetcher: no network.
#include "runner/import/answer_page.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>

using namespace gol::runner;
namespace fs = std::filesystem;

namespace {

std::string saved(const std::string& name) {
    std::ifstream in(fs::path(IMPORT_ANSWERS_DIR) / name, std::ios::binary);
    REQUIRE(in);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

std::string error_of(std::string_view text) {
    try {
        parse_answer_page(text, "saved.json");
    } catch (const AnswerPageError& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("answer page: a saved response's answers, with their ids, authors, scores and dates") {
    const AnswerPage page = parse_answer_page(saved("six_languages.json"), "six_languages.json");
    REQUIRE(page.answers.size() == 11);
    CHECK_FALSE(page.has_more);
    CHECK(page.backoff_seconds == 0);
    const Answer& first = page.answers[0];
    CHECK(first.answer_id == 90001);
    CHECK(first.question_id == 111111);
    CHECK(first.author == "José Pérez");  // the API sends names HTML-encoded
    CHECK(first.score == 7);
    CHECK(first.last_activity_date == 1468300000);
    CHECK(first.body.starts_with("<h1>Python 3, Random Gliders!</h1>"));
    CHECK(page.answers[9].author.empty());  // an answer without an owner
    const AnswerPage one = parse_answer_page(saved("page1.json"), "page1.json");
    CHECK(one.has_more);
    CHECK(one.backoff_seconds == 3);
}

TEST_CASE("answer page: what is not an answers response is named") {
    CHECK(error_of("<html>") .starts_with("saved.json: not JSON"));
    CHECK(error_of("[]") == "saved.json: not a Stack Exchange API response (a JSON object)");
    CHECK(error_of(R"({"error_id":502,"error_message":"too many requests from this IP","error_name":"throttle_violation"})") ==
          "saved.json: the API refused: throttle_violation: too many requests from this IP");
    CHECK(error_of(R"({"quota_max":300})") == "saved.json: no \"items\" list: not a Stack Exchange API answers response");
    CHECK(error_of(R"({"items":[{"question_id":1}]})") == "saved.json: an item without an \"answer_id\": not an answers response");
    CHECK(error_of(R"({"items":[{"answer_id":5,"score":1}]})") ==
          "saved.json: answer 5 has no \"body\": fetch it with the API's filter=withbody");
    CHECK(error_of(std::string("\x1f\x8b\x08\x00", 4)).find("gzip-compressed") != std::string::npos);
}

TEST_CASE("answer page: every page is fetched while has_more, each backoff waited out") {
    const std::map<int, std::string> pages = {{1, saved("page1.json")}, {2, saved("page2.json")}, {3, saved("page3.json")}};
    std::vector<std::string> asked;
    std::vector<std::chrono::seconds> waited;
    AnswerFetcher fetcher;
    fetcher.get = [&](const std::string& url) {
        asked.push_back(url);
        const int number = std::stoi(url.substr(url.rfind("page=") + 5));
        return HttpResponse{200, pages.at(number)};
    };
    fetcher.wait = [&](std::chrono::seconds s) { waited.push_back(s); };
    const std::vector<Answer> answers = fetch_answers(111111, "codegolf", fetcher);
    REQUIRE(asked.size() == 3);
    CHECK(asked[0] ==
          "https://api.stackexchange.com/2.3/questions/111111/answers?site=codegolf&filter=withbody&sort=creation"
          "&order=asc&pagesize=100&page=1");
    CHECK(asked[2].ends_with("&page=3"));
    // Page 1 asked for 3 seconds before the next request; page 2 for none.
    CHECK(waited == std::vector<std::chrono::seconds>{std::chrono::seconds(3)});
    REQUIRE(answers.size() == 11);
    CHECK(answers.front().answer_id == 90001);
    CHECK(answers.back().answer_id == 90011);
}

TEST_CASE("answer page: an API error names the status and the API's reason, and no answer at all is a FetchError") {
    AnswerFetcher fetcher;
    fetcher.wait = [](std::chrono::seconds) {};
    fetcher.get = [](const std::string&) {
        return HttpResponse{400, R"({"error_id":400,"error_message":"site is required","error_name":"bad_parameter"})"};
    };
    try {
        fetch_answers(1, "codegolf", fetcher);
        FAIL("no error");
    } catch (const AnswerPageError& e) {
        CHECK(std::string(e.what()).starts_with("HTTP status 400: https://api.stackexchange.com/"));
        CHECK(std::string(e.what()).ends_with("the API refused: bad_parameter: site is required"));
    }
    fetcher.get = [](const std::string&) -> HttpResponse { throw FetchError("cannot fetch: offline"); };
    CHECK_THROWS_AS(fetch_answers(1, "codegolf", fetcher), FetchError);
    // An API that says has_more for ever is stopped.
    int calls = 0;
    fetcher.get = [&](const std::string&) {
        ++calls;
        return HttpResponse{200, R"({"items":[],"has_more":true})"};
    };
    CHECK_THROWS_AS(fetch_answers(1, "codegolf", fetcher), AnswerPageError);
    CHECK(calls == 50);
}
