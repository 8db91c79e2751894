// HTML text: bots' names and details never reach a page as markup.
#include "runner/text/html_text.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <string>

using namespace gol::runner;
using nlohmann::json;

TEST_CASE("html_escape and script_safe_json leave no markup") {
    CHECK(html_escape("<a href=\"x\">Tom & 'Jerry'</a>") ==
          "&lt;a href=&quot;x&quot;&gt;Tom &amp; &#39;Jerry&#39;&lt;/a&gt;");
    const json j = {{"name", std::string("</script><script>alert(1)</script>") + " & more"}};
    const std::string safe = script_safe_json(j.dump());
    CHECK(safe.find('<') == std::string::npos);
    CHECK(safe.find('>') == std::string::npos);
    CHECK(safe.find('&') == std::string::npos);
    CHECK(json::parse(safe) == j);
}
