#include "runner/game/protocol.hpp"
#include "runner/game/json_fields.hpp"

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <random>
#include <string>

using namespace gol;
using namespace gol::runner;

namespace {

Move parse(const std::string& text) { return parse_reply(text); }

ForfeitKind kind_of(const std::string& text) {
    Move r = parse(text);
    REQUIRE_FALSE(r.ok());
    return r.forfeit->kind;
}

}  // namespace

TEST_CASE("codec: an empty board in the exact 2016 format") {
    Board board(2000, 1000);
    std::string out;
    encode_board(board, 1, 0, out);
    CHECK(out == R"j({"y_size":2000,"x_size":1000,"board":{},"bot_id":1,"tick_id":0})j");
}

TEST_CASE("codec: keys are (y,x), row first, values are owners, cells in (y, x) order") {
    Board board(5, 7);
    std::vector<Cell> one = {{4, 6}, {0, 3}};
    std::vector<Cell> two = {{0, 1}, {2, 5}};
    board.place(Player::one, one);
    board.place(Player::two, two);
    std::string out;
    encode_board(board, 2, 12345678901, out);
    CHECK(out == R"j({"y_size":5,"x_size":7,"board":{"(0,1)":2,"(0,3)":1,"(2,5)":2,"(4,6)":1},"bot_id":2,"tick_id":12345678901})j");
    // Reuse keeps no trace of the previous encoding.
    Board empty(1, 1);
    encode_board(empty, 1, 3, out);
    CHECK(out == R"j({"y_size":1,"x_size":1,"board":{},"bot_id":1,"tick_id":3})j");
}

TEST_CASE("codec: a big board on the largest side, cell for cell as nlohmann/json writes it") {
    Board board(Board::max_side, Board::max_side);
    std::mt19937 rng(7);
    std::vector<Cell> one, two;
    for (int i = 0; i < 40000; ++i) {
        // Whole rows too, and the corners: every digit count of y and x.
        const Cell c = i < 4096 ? Cell{4095 * (i % 2), i} : Cell{static_cast<int>(rng() % 4096), static_cast<int>(rng() % 4096)};
        (rng() % 2 ? one : two).push_back(c);
    }
    board.place(Player::one, one);
    board.place(Player::two, two);
    std::vector<LiveCell> scratch;
    std::string out;
    encode_board(board, 2, 9, out);

    nlohmann::ordered_json expected = {{"y_size", Board::max_side}, {"x_size", Board::max_side}};
    nlohmann::ordered_json cells = nlohmann::ordered_json::object();
    board.live_cells(scratch);
    for (const LiveCell& c : scratch)
        cells["(" + std::to_string(c.y) + "," + std::to_string(c.x) + ")"] = c.owner == Player::one ? 1 : 2;
    expected["board"] = cells;
    expected["bot_id"] = 2;
    expected["tick_id"] = 9;
    CHECK(scratch.size() > 35000);
    CHECK(out == expected.dump());
}

TEST_CASE("reply: valid moves, whitespace allowed") {
    Move r = parse(" \n[ [1, 2] ,[0,0],\t[1,2] ]\n");
    REQUIRE(r.ok());
    CHECK(r.cells == std::vector<Cell>{{1, 2}, {0, 0}, {1, 2}});
    CHECK(parse("[]").ok());
    CHECK(parse("[]").cells.empty());
}

TEST_CASE("reply: coordinates that cannot be on a board are kept as off-board") {
    Move r = parse("[[-5, 3], [99999999999999999999999, 1], [2147483648, 0], [-0, 4]]");
    REQUIRE(r.ok());
    CHECK(r.cells == std::vector<Cell>{{-1, 3}, {-1, 1}, {-1, 0}, {0, 4}});
}

TEST_CASE("reply: exactly 30 cells are allowed, 31 forfeit") {
    std::string thirty = "[";
    for (int i = 0; i < 30; ++i) thirty += (i ? ",[" : "[") + std::to_string(i) + ",0]";
    CHECK(parse(thirty + "]").ok());
    Move r = parse(thirty + ",[0,0]]");
    REQUIRE_FALSE(r.ok());
    CHECK(r.forfeit->kind == ForfeitKind::too_many_cells);
    CHECK(r.forfeit->detail == "31 cells, at most 30 per move");
}

TEST_CASE("reply: anything that is not JSON") {
    CHECK(kind_of("") == ForfeitKind::not_json);
    CHECK(kind_of("   \n") == ForfeitKind::not_json);
    CHECK(kind_of("hello") == ForfeitKind::not_json);
    CHECK(kind_of("[[1,2]") == ForfeitKind::not_json);
    CHECK(kind_of("[[1,2]] [[3,4]]") == ForfeitKind::not_json);
    CHECK(kind_of("{\"a\":") == ForfeitKind::not_json);
    CHECK(kind_of(std::string(2000000, '[')) == ForfeitKind::not_json);
}

TEST_CASE("reply: a reply that is not JSON is told in plain words with the fix, no parser jargon") {
    auto detail = [](const std::string& text) {
        Move r = parse(text);
        REQUIRE_FALSE(r.ok());
        CHECK(r.forfeit->detail.find("json.exception") == std::string::npos);
        CHECK(r.forfeit->detail.find("parse error") == std::string::npos);
        return r.forfeit->detail;
    };
    CHECK(detail("Debug: thinking about it\n[[1,2]]\n") ==
          "the reply is not JSON: it starts with \"Debug: thinking about it\" (print debug text to stderr, not stdout)");
    // Only the first line, cut at 40 bytes.
    CHECK(detail("  Considering all of the 400 cells of the board now\n[[1,2]]") ==
          "the reply is not JSON: it starts with \"Considering all of the 400 cells of the ...\" (print debug text to "
          "stderr, not stdout)");
    CHECK(detail("") == "the bot printed nothing on stdout (did it crash before printing, or print to stderr?)");
    CHECK(detail(" \n") == "the bot printed nothing on stdout (did it crash before printing, or print to stderr?)");
    CHECK(detail("[[1,2]]\ndone: 1 cell\n") ==
          "the reply has more after its JSON, from byte 8: \"done: 1 cell\" (the reply is one JSON list on stdout; "
          "print debug text to stderr, not stdout)");
    CHECK(detail("[[1,2]] [[3,4]]").starts_with("the reply has more after its JSON, from byte 8: \"[[3,4]]\""));
    CHECK(detail("[[1,2]") == "the reply's JSON is cut off: it ends after 6 bytes, before the JSON does");
    CHECK(detail(std::string(2000000, '[')).starts_with("the reply's JSON is cut off: it ends after 2000000 bytes"));
    CHECK(detail("[[1,2],,[3,4]]") == "the reply is not valid JSON at byte 7: \",[3,4]]\"");
}

TEST_CASE("reply: JSON of the wrong shape") {
    CHECK(kind_of("null") == ForfeitKind::not_pairs);
    CHECK(kind_of("{\"cells\":[]}") == ForfeitKind::not_pairs);
    CHECK(kind_of("[[1,2,3]]") == ForfeitKind::not_pairs);
    CHECK(kind_of("[[1]]") == ForfeitKind::not_pairs);
    CHECK(kind_of("[[]]") == ForfeitKind::not_pairs);
    CHECK(kind_of("[1,2]") == ForfeitKind::not_pairs);
    CHECK(kind_of("[[\"1\",2]]") == ForfeitKind::not_pairs);
    CHECK(kind_of("[[null,2]]") == ForfeitKind::not_pairs);
    CHECK(kind_of("[[[1],2]]") == ForfeitKind::not_pairs);
    CHECK(kind_of("[[true,2]]") == ForfeitKind::not_pairs);
    CHECK(kind_of("\"[[1,2]]\"") == ForfeitKind::not_pairs);
    CHECK(kind_of("5") == ForfeitKind::not_pairs);
    std::string deep = std::string(100000, '[') + std::string(100000, ']');
    CHECK(kind_of(deep) == ForfeitKind::not_pairs);
    CHECK(parse("[[1,2,3]]").forfeit->detail ==
          "found a list of more than 2 numbers (the reply is a list of [y, x] pairs, e.g. [[3,4],[5,6]])");
}

TEST_CASE("reply: non-integer coordinates") {
    CHECK(kind_of("[[1.5,2]]") == ForfeitKind::non_integer);
    CHECK(kind_of("[[1,2e3]]") == ForfeitKind::non_integer);
    CHECK(kind_of("[[1.0,2]]") == ForfeitKind::non_integer);
    CHECK(parse("[[1.5,2]]").forfeit->detail == "coordinate 1.5 is not an integer (print whole numbers: 3, not 3.0)");
}

TEST_CASE("a bot's text for a message: its first line, cut whole characters, and its stderr's last lines") {
    CHECK(text_start("short\nsecond") == "short");
    CHECK(text_start("windows\r\nsecond") == "windows");
    CHECK(text_start("0123456789", 7) == "0123...");
    // "é" is two columns: a cut through it keeps none of it.
    CHECK(text_start("abc\xc3\xa9zzz", 7) == "abc...");
    // 40 columns of text and the mark: a line no longer than that is whole.
    CHECK(text_start(std::string(43, 'x')) == std::string(43, 'x'));
    CHECK(text_start(std::string(44, 'x')) == std::string(40, 'x') + "...");
    CHECK(last_lines("", 5).empty());
    CHECK(last_lines("one\ntwo\n\n  \nthree\n", 2) == std::vector<std::string>{"two", "three"});
    CHECK(last_lines("only", 5) == std::vector<std::string>{"only"});
    CHECK(last_lines(std::string(300, 'x'), 1) == std::vector<std::string>{std::string(200, 'x') + "..."});
}

TEST_CASE("forfeit kinds round-trip through their names") {
    for (int i = 0; i <= static_cast<int>(ForfeitKind::time_bank); ++i) {
        auto kind = static_cast<ForfeitKind>(i);
        CHECK(forfeit_kind_from_name(name(kind)) == kind);
    }
    CHECK_FALSE(forfeit_kind_from_name("bogus").has_value());
}

TEST_CASE("codec: decode_board reads back what encode_board writes, and names what is wrong") {
    Board board(7, 9);
    board.place(Player::one, std::vector<Cell>{{0, 0}, {6, 8}});
    board.place(Player::two, std::vector<Cell>{{3, 4}});
    std::string json;
    encode_board(board, 2, 17, json);
    const SentBoard sent = decode_board(json);
    CHECK(sent.bot_id == 2);
    CHECK(sent.tick_id == 17);
    std::string again;
    encode_board(sent.board, sent.bot_id, sent.tick_id, again);
    CHECK(again == json);
    // Whitespace and key order are the writer's business; the board is the same.
    const SentBoard spaced = decode_board(
        R"j( {"tick_id": 17, "bot_id": 2, "board": {"(6,8)": 1, "(3,4)": 2, "(0,0)": 1}, "x_size": 9, "y_size": 7} )j");
    encode_board(spaced.board, spaced.bot_id, spaced.tick_id, again);
    CHECK(again == json);

    auto error = [](std::string_view text) {
        try {
            decode_board(text);
        } catch (const RecordError& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    CHECK(error("[[1,2]]") == "not a JSON object");
    CHECK(error("{\"y_size\":3") .starts_with("not JSON"));
    CHECK(error(R"j({"y_size":3,"x_size":3,"board":{},"bot_id":1})j") == "no \"tick_id\"");
    CHECK(error(R"j({"y_size":0,"x_size":3,"board":{},"bot_id":1,"tick_id":0})j") ==
          "\"y_size\" is 0, not from 1 to " + std::to_string(Board::max_side));
    CHECK(error(R"j({"y_size":3,"x_size":3,"board":{},"bot_id":3,"tick_id":0})j") ==
          "\"bot_id\" is 3, not from 1 to 2");
    CHECK(error(R"j({"y_size":3,"x_size":3,"board":{"(3,0)":1},"bot_id":1,"tick_id":0})j") ==
          "\"board\": the key \"(3,0)\" is not \"(y,x)\" on the 3x3 board");
    CHECK(error(R"j({"y_size":3,"x_size":3,"board":{"1,0":1},"bot_id":1,"tick_id":0})j") ==
          "\"board\": the key \"1,0\" is not \"(y,x)\" on the 3x3 board");
    CHECK(error(R"j({"y_size":3,"x_size":3,"board":{"(1,0)":0},"bot_id":1,"tick_id":0})j") ==
          "\"board\": the owner of \"(1,0)\" is 0, not 1 or 2");
}
