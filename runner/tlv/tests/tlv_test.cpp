#include "runner/tlv/tlv.hpp"
#include "runner/text/terminal_text.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace gol;
using namespace gol::runner;

namespace {

std::string bytes(std::initializer_list<int> list) {
    std::string s;
    for (int b : list) s += static_cast<char>(b);
    return s;
}

// Every message `input` holds, fed `chunk` bytes at a time; the error's text when it breaks the protocol.
std::vector<tlv::Message> read_all(const std::string& input, std::size_t chunk, std::string* error = nullptr) {
    tlv::Reader reader;
    std::vector<tlv::Message> out;
    try {
        for (std::size_t at = 0; at < input.size(); at += chunk) {
            reader.feed(std::string_view(input).substr(at, chunk));
            while (auto m = reader.next()) out.push_back(std::move(*m));
        }
    } catch (const tlv::ProtocolError& e) {
        if (error) *error = e.what();
    }
    return out;
}

std::string refusal(const std::string& input) {
    std::string error;
    read_all(input, input.size(), &error);
    return error;
}

}  // namespace

TEST_CASE("tlv: the 2014 text's example move, X then Y") {
    const std::vector<Cell> cells = {{991, 781}, {1, 214}};  // Cell is {y, x}
    CHECK(tlv::move(cells) == bytes({0x4D, 0x08, 0x03, 0x0D, 0x03, 0xDF, 0x00, 0xD6, 0x00, 0x01}));
    const auto read = read_all(tlv::move(cells), 1);
    REQUIRE(read.size() == 1);
    CHECK(read[0].type == tlv::Type::move);
    CHECK(read[0].cells == cells);
}

TEST_CASE("tlv: every type written and read back, cut at every byte") {
    const std::vector<tlv::Message> messages = {
        {tlv::Type::identification, "alice/Glider of Doom", {}, {}},
        {tlv::Type::start, "Training/sitter", {}, {}},
        {tlv::Type::start, "", {}, {}},
        {tlv::Type::move, "", {}, {}},
        {tlv::Type::move, "", std::vector<Cell>(30, Cell{65535, 0}), {}},
        {tlv::Type::generation, "", {}, {}},
        {tlv::Type::turn, "", {}, {}},
        {tlv::Type::bye, "", {}, {4294967295u, 7}},
    };
    std::string all;
    for (const tlv::Message& m : messages) all += tlv::encode(m);
    CHECK(tlv::bye(1, 258) == bytes({'B', 8, 0, 0, 0, 1, 0, 0, 1, 2}));
    CHECK(tlv::generation() == "G" + std::string(1, '\0'));
    for (std::size_t chunk = 1; chunk <= all.size(); ++chunk) CHECK(read_all(all, chunk) == messages);
}

TEST_CASE("tlv: a message cut short is held, not taken") {
    tlv::Reader reader;
    reader.feed(tlv::move(std::vector<Cell>{{1, 2}}).substr(0, 5));
    CHECK_FALSE(reader.next());
    CHECK(reader.held() == 5);
    reader.feed(std::string(1, '\x01'));
    CHECK(reader.next());
    CHECK(reader.held() == 0);
}

TEST_CASE("tlv: the reader refuses what the protocol does not allow, naming it") {
    CHECK(refusal("X") == "a message of unknown type 'X' (known: I S M G T B)");
    CHECK(refusal(bytes({0})) == "a message of unknown type 0x00 (known: I S M G T B)");
    CHECK(refusal(bytes({'M', 5})) == "'M' of length 5, not a multiple of 4 (pairs of 16-bit X and Y)");
    CHECK(refusal(bytes({'M', 124})) == "'M' of length 124: 31 cells (at most 30)");
    CHECK(refusal(bytes({'G', 1})) == "'G' of length 1, not 0");
    CHECK(refusal(bytes({'T', 255})) == "'T' of length 255, not 0");
    CHECK(refusal(bytes({'B', 4})) == "'B' of length 4, not 8 (two 32-bit counts)");
    CHECK(refusal(bytes({'I', 0})) == "'I' of length 0 (an identification is 1 to 250 bytes)");
    CHECK(refusal(bytes({'I', 251})) == "'I' of length 251 (an identification is 1 to 250 bytes)");
    CHECK(refusal(bytes({'I', 2, 0xC3, 0x28})) == "'I' with a text that is not UTF-8 or holds control characters");
    CHECK(refusal(bytes({'I', 2, 'a', '\n'})) == "'I' with a text that is not UTF-8 or holds control characters");
    // Refused before the bytes it promises arrive: a lying length is not waited for.
    CHECK(refusal(bytes({'M', 200})) == "'M' of length 200: 50 cells (at most 30)");
}

TEST_CASE("tlv: a spent reader keeps refusing") {
    tlv::Reader reader;
    reader.feed("Q");
    CHECK_THROWS_AS(reader.next(), tlv::ProtocolError);
    reader.feed(tlv::turn());
    CHECK_THROWS_AS(reader.next(), tlv::ProtocolError);
}

TEST_CASE("tlv: UTF-8 as identifications need it") {
    CHECK(is_printable_text("name/bot é 日本 🙂"));
    CHECK_FALSE(is_printable_text(bytes({0xC0, 0xAF})));              // overlong '/'
    CHECK_FALSE(is_printable_text(bytes({0xED, 0xA0, 0x80})));        // a surrogate
    CHECK_FALSE(is_printable_text(bytes({0xF4, 0x90, 0x80, 0x80})));  // above U+10FFFF
    CHECK_FALSE(is_printable_text(bytes({0xC2, 0x85})));              // C1 control
    CHECK_FALSE(is_printable_text(bytes({0xE6, 0x97})));              // cut short
    CHECK_FALSE(is_printable_text(std::string("a\x7f", 2)));
}

TEST_CASE("tlv: the writer sends nothing the protocol cannot carry") {
    CHECK_THROWS_AS(tlv::identification(""), std::invalid_argument);
    CHECK_THROWS_AS(tlv::identification(std::string(251, 'a')), std::invalid_argument);
    CHECK_NOTHROW(tlv::start(std::string(255, 'a')));
    CHECK_THROWS_AS(tlv::start(std::string(256, 'a')), std::invalid_argument);
    CHECK_THROWS_AS(tlv::move(std::vector<Cell>(31, Cell{0, 0})), std::invalid_argument);
    CHECK_THROWS_AS(tlv::move(std::vector<Cell>{{0, 65536}}), std::invalid_argument);
    CHECK_THROWS_AS(tlv::move(std::vector<Cell>{{-1, 0}}), std::invalid_argument);
}
