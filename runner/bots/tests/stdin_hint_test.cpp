// The hint for an argv bot that reads its board from stdin.
#include "runner/bots/stdin_hint.hpp"

#include <doctest/doctest.h>

using namespace gol::runner;

TEST_CASE("stdin hint: each language's words for empty stdin, for argv bots only") {
    for (const char* err : {"json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)",
                            "EOFError: EOF when reading a line", "  File \"bot.rb\", line 2: STDIN.read",
                            "SyntaxError: Unexpected end of JSON input", "JSON::ParserError: unexpected end of input"}) {
        CAPTURE(err);
        CHECK(stdin_hint(Protocol::argv, err).has_value());
        CHECK_FALSE(stdin_hint(Protocol::stdin, err).has_value());
        CHECK_FALSE(stdin_hint(Protocol::persistent, err).has_value());
    }
    CHECK_FALSE(stdin_hint(Protocol::argv, "ModuleNotFoundError: No module named 'numpy'").has_value());
    CHECK_FALSE(stdin_hint(Protocol::argv, "").has_value());
    CHECK(stdin_hint(Protocol::argv, "EOFError")->find("\"protocol\": \"stdin\"") != std::string::npos);
}
