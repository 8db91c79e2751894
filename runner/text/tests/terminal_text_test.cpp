// Terminal text: controls and bytes that are not UTF-8 escaped, the rest kept; a bot's lines marked.
#include "runner/text/terminal_text.hpp"

#include <doctest/doctest.h>

#include <string>

using namespace gol::runner;

TEST_CASE("terminal text escapes controls and bytes that are not UTF-8, and keeps the rest") {
    CHECK(terminal_line("a\x1b[2Jb\rc\nd\te\x7f") == "a\\x1b[2Jb\\x0dc\\x0ad\\x09e\\x7f");
    CHECK(terminal_lines("a\x1b[2Jb\rc\nd\te") == "a\\x1b[2Jb\\x0dc\nd\te");
    CHECK(terminal_line("CSI \xc2\x9b" "2J") == "CSI \\xc2\\x9b2J");       // U+009B, a C1 control
    CHECK(terminal_line("bad \xff \xe2\x82 \xc0\xaf \xed\xa0\x80") ==    // stray, cut, overlong, surrogate
          "bad \\xff \\xe2\\x82 \\xc0\\xaf \\xed\\xa0\\x80");
    const std::string fine = "caf\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac \xf0\x9f\x90\xa2 \xc2\xa0";  // é, 日本, a turtle, NBSP
    CHECK(terminal_line(fine) == fine);
    CHECK(is_printable_text(fine));
    CHECK_FALSE(is_printable_text("x\x1b"));
    CHECK_FALSE(is_printable_text("x\xc2\x85"));
    CHECK_FALSE(is_printable_text("x\xf5\x80\x80\x80"));
    CHECK_FALSE(is_printable_text(std::string("x\0y", 3)));
}

TEST_CASE("a bot's lines: each marked after the indent, blank ones too, a last line without newline ended") {
    CHECK(bot_lines("tick 0 seat 2 (idle): forfeit timeout: x\n\nlast", "  ") ==
          "  | tick 0 seat 2 (idle): forfeit timeout: x\n  | \n  | last\n");
    CHECK(bot_lines("one\n", "    ") == "    | one\n");
    CHECK(bot_lines("", "  ").empty());
}
