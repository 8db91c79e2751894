#include "engine/bench/rle.hpp"

#include <doctest/doctest.h>

#include <stdexcept>
#include <string>
#include <vector>

using namespace gol;
using bench::parse_rle;

TEST_CASE("rle: a glider with its header, comments and rule") {
    const bench::RlePattern p = parse_rle("#N Glider\n#C a comment\nx = 3, y = 3, rule = B3/S23\nbo$2bo$3o!\n");
    CHECK(p.width == 3);
    CHECK(p.height == 3);
    CHECK(p.rule == "B3/S23");
    CHECK(p.cells == std::vector<Cell>{{0, 1}, {1, 2}, {2, 0}, {2, 1}, {2, 2}});
}

TEST_CASE("rle: runs of several digits, blank rows, lines split anywhere, and nothing read after '!'") {
    // 12 dead, 2 live; three row ends (two blank rows); a run split across lines; then ignored text.
    const bench::RlePattern p = parse_rle("x=20,y=4\n12b2o3$\n1\n0bo!\n5o$o!\n");
    CHECK(p.width == 20);
    CHECK(p.height == 4);
    CHECK(p.rule.empty());
    CHECK(p.cells == std::vector<Cell>{{0, 12}, {0, 13}, {3, 10}});
}

TEST_CASE("rle: a pattern without '!' ends with its text, and spaces between items are ignored") {
    const bench::RlePattern p = parse_rle("x = 2, y = 1\n o  o\n");
    CHECK(p.cells == std::vector<Cell>{{0, 0}, {0, 1}});
}

TEST_CASE("rle: errors name what is wrong") {
    CHECK_THROWS_WITH_AS(parse_rle(""), "RLE: no header line", std::runtime_error);
    CHECK_THROWS_WITH_AS(parse_rle("#C only a comment\n"), "RLE: no header line", std::runtime_error);
    CHECK_THROWS_WITH_AS(parse_rle("y = 3, x = 3\nbo!\n"), "RLE: bad header line: y = 3, x = 3", std::runtime_error);
    CHECK_THROWS_WITH_AS(parse_rle("x = 3, y = 3\nbzo!\n"), "RLE: unexpected character 'z'", std::runtime_error);
}
