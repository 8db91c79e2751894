#include "runner/import/answer_page.hpp"

#include "runner/import/answer_html.hpp"
#include "runner/text/terminal_text.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace gol::runner {

using nlohmann::json;

namespace {

// More pages than any question has answers for (100 to a page): an API that says `has_more`
// for ever is stopped here.
constexpr int kMaxPages = 50;

std::optional<std::int64_t> answer_field(const json& item, const char* key) {
    const auto it = item.find(key);
    if (it == item.end() || !it->is_number_integer()) return std::nullopt;
    return it->get<std::int64_t>();
}

}  // namespace

AnswerPage parse_answer_page(std::string_view text, const std::string& source) {
    const std::string where = terminal_line(source);
    if (text.size() >= 2 && static_cast<unsigned char>(text[0]) == 0x1f && static_cast<unsigned char>(text[1]) == 0x8b)
        throw AnswerPageError(where + ": gzip-compressed (the API compresses every response): gunzip it, or save it "
                                      "with curl --compressed");
    json j;
    try {
        j = json::parse(text);
    } catch (const json::exception& e) {
        throw AnswerPageError(where + ": not JSON: " + e.what());
    }
    if (!j.is_object()) throw AnswerPageError(where + ": not a Stack Exchange API response (a JSON object)");
    if (j.contains("error_id") || j.contains("error_message"))
        throw AnswerPageError(where + ": the API refused: " + terminal_line(j.value("error_name", std::string("error"))) +
                              ": " + terminal_line(j.value("error_message", std::string())));
    if (!j.contains("items") || !j["items"].is_array())
        throw AnswerPageError(where + ": no \"items\" list: not a Stack Exchange API answers response");
    AnswerPage page;
    page.has_more = j.value("has_more", false);
    page.backoff_seconds = static_cast<int>(std::clamp<std::int64_t>(answer_field(j, "backoff").value_or(0), 0, 3600));
    for (const json& item : j["items"]) {
        const std::int64_t id = item.is_object() ? answer_field(item, "answer_id").value_or(0) : 0;
        if (id <= 0) throw AnswerPageError(where + ": an item without an \"answer_id\": not an answers response");
        if (!item.contains("body") || !item["body"].is_string())
            throw AnswerPageError(where + ": answer " + std::to_string(id) +
                                  " has no \"body\": fetch it with the API's filter=withbody");
        Answer answer;
        answer.answer_id = id;
        answer.question_id = answer_field(item, "question_id");
        answer.score = answer_field(item, "score");
        answer.last_activity_date = answer_field(item, "last_activity_date");
        answer.body = item["body"].get<std::string>();
        if (const auto owner = item.find("owner"); owner != item.end() && owner->is_object())
            if (const auto name = owner->find("display_name"); name != owner->end() && name->is_string())
                answer.author = html_text(name->get<std::string>());
        page.answers.push_back(std::move(answer));
    }
    return page;
}

std::string answers_url(std::int64_t question, const std::string& site, int page) {
    return "https://api.stackexchange.com/2.3/questions/" + std::to_string(question) + "/answers?site=" + site +
           "&filter=withbody&sort=creation&order=asc&pagesize=100&page=" + std::to_string(page);
}

std::vector<Answer> fetch_answers(std::int64_t question, const std::string& site, const AnswerFetcher& fetcher) {
    std::vector<Answer> answers;
    for (int number = 1;; ++number) {
        if (number > kMaxPages)
            throw AnswerPageError("the API still said has_more after " + std::to_string(kMaxPages) + " pages");
        const std::string url = answers_url(question, site, number);
        const HttpResponse response = fetcher.get(url);
        AnswerPage page;
        try {
            page = parse_answer_page(response.body, url);
        } catch (const AnswerPageError& e) {
            if (response.status == 0 || response.status == 200) throw;
            throw AnswerPageError("HTTP status " + std::to_string(response.status) + ": " + e.what());
        }
        for (Answer& answer : page.answers) answers.push_back(std::move(answer));
        if (!page.has_more) return answers;
        // The API asks for `backoff` seconds between requests of the same method; a client that
        // ignores it is blocked.
        if (page.backoff_seconds > 0) fetcher.wait(std::chrono::seconds(page.backoff_seconds));
    }
}

}  // namespace gol::runner
