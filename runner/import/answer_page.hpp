// The Stack Exchange API's answers of a question: reading a response (`/questions/ID/answers`
// with the `withbody` filter), and fetching every page of them.
#pragma once

#include "runner/import/https_get.hpp"

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace gol::runner {

// A response that is not an answers page, or an error the API returned; the message says which.
struct AnswerPageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// An answer as the API gave it; a field it did not give is none, never an invented 0.
struct Answer {
    std::int64_t answer_id = 0;
    std::optional<std::int64_t> question_id;
    std::string author;  // owner.display_name, its HTML entities decoded; "" when the API has none
    std::optional<std::int64_t> score;
    std::optional<std::int64_t> last_activity_date;  // Unix seconds
    std::string body;                                // HTML
};

struct AnswerPage {
    std::vector<Answer> answers;
    bool has_more = false;
    int backoff_seconds = 0;  // the API's `backoff`: wait this long before asking again
};

// `text` is one response; `source` (a file or URL) names it in messages. Throws AnswerPageError
// for what is not JSON, an API error object (its error_name and error_message), a gzip file
// saved without decompressing, or an item without answer_id or body.
AnswerPage parse_answer_page(std::string_view text, const std::string& source);

// The API's URL of page `page` (from 1) of question `question`'s answers on `site`, bodies
// included, oldest first, 100 to a page.
std::string answers_url(std::int64_t question, const std::string& site, int page);

// How pages are fetched and how the API's backoff is waited out: substituted in tests.
struct AnswerFetcher {
    std::function<HttpResponse(const std::string& url)> get = [](const std::string& url) { return https_get(url); };
    std::function<void(std::chrono::seconds)> wait = [](std::chrono::seconds s) { std::this_thread::sleep_for(s); };
};

// Every answer of the question, page after page while `has_more`, waiting out each `backoff`.
// Throws FetchError (no answer at all) or AnswerPageError (an HTTP or API error, named).
std::vector<Answer> fetch_answers(std::int64_t question, const std::string& site, const AnswerFetcher& fetcher = {});

}  // namespace gol::runner
