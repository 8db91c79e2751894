#include "runner/arena/arena_keys.hpp"

#include <doctest/doctest.h>

using namespace gol::runner;

TEST_CASE("keys: a name per line, the secret its last word, comments and blank lines skipped") {
    const ArenaKeys keys = parse_keys("# names\n\nalice/Glider of Doom  s3cret-a\r\nbob/Sitter\t9f8e7d\n", "keys");
    CHECK(keys.size() == 2);
    CHECK(keys.at("alice/Glider of Doom") == "s3cret-a");
    CHECK(keys.at("bob/Sitter") == "9f8e7d");
}

TEST_CASE("keys: a file that cannot be right is refused with its line") {
    CHECK_THROWS_WITH_AS(parse_keys("alice\n", "k"), "k:1: a name and a secret are needed, separated by a space", KeysError);
    CHECK_THROWS_WITH_AS(parse_keys("a x\n#\na y\n", "k"), "k:3: the name \"a\" has a key already", KeysError);
    CHECK_THROWS_AS(parse_keys(std::string(250, 'a') + " s\n", "k"), KeysError);
}

TEST_CASE("keys: an identification plays under its name only with the right secret") {
    const ArenaKeys keys = parse_keys("alice/Glider of Doom s3cret\n", "keys");
    std::string why;
    CHECK(admitted_name("alice/Glider of Doom s3cret", &keys, why) == "alice/Glider of Doom");
    CHECK_FALSE(admitted_name("alice/Glider of Doom wrong", &keys, why));
    CHECK(why == "the name \"alice/Glider of Doom\" is not in the keys file or its secret is wrong");
    CHECK_FALSE(admitted_name("alice/Glider of Doom", &keys, why));
    CHECK_FALSE(admitted_name("mallory/x s3cret", &keys, why));
    CHECK_FALSE(admitted_name("alice/Glider of Doom s3cre", &keys, why));
    // Without keys, the identification is the name.
    CHECK(admitted_name("anyone at all", nullptr, why) == "anyone at all");
}
