#include "runner/game/protocol.hpp"

#include "runner/game/json_fields.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <climits>
#include <cstring>

namespace gol::runner {

namespace {

// Checks the shape of a reply while nlohmann's SAX parser walks it: no DOM is built, so a
// hostile reply costs no more memory than its own bytes.
class ReplyShape : public nlohmann::json_sax<nlohmann::json> {
public:
    // Without shape checks it only records the syntax error, for replies that are not JSON.
    explicit ReplyShape(bool check_shape) : check_(check_shape) {}

    std::vector<Cell> cells;
    std::size_t pairs = 0;
    std::string error;
    std::size_t error_at = 0;  // bytes read when a syntax error stopped the parse
    bool non_integer = false;

    bool null() override { return wrong("null"); }
    bool boolean(bool) override { return wrong("a boolean"); }
    bool number_integer(number_integer_t v) override { return coordinate(v); }
    bool number_unsigned(number_unsigned_t v) override {
        return coordinate(v > static_cast<number_unsigned_t>(INT_MAX) ? -1 : static_cast<std::int64_t>(v));
    }
    bool number_float(number_float_t, const string_t& raw) override {
        // An integer literal too large for 64 bits arrives here; it is still an integer, just
        // one that lies off any board.
        if (raw.find_first_of(".eE") == string_t::npos) return coordinate(-1);
        if (!check_) return true;
        non_integer = true;
        error = "coordinate " + raw + " is not an integer";
        return false;
    }
    bool string(string_t&) override { return wrong("a string"); }
    bool binary(binary_t&) override { return wrong("binary data"); }
    bool start_object(std::size_t) override { return wrong("an object"); }
    bool key(string_t&) override { return wrong("an object"); }
    bool end_object() override { return wrong("an object"); }
    bool start_array(std::size_t) override {
        if (!check_) return true;
        if (depth_ == 0) return ++depth_, true;
        if (depth_ == 1) {
            in_pair_ = 0;
            return ++depth_, true;
        }
        return wrong("a list nested more than two deep");
    }
    bool end_array() override {
        if (!check_) return true;
        if (depth_ == 2) {
            if (in_pair_ != 2) return wrong("a list of " + std::to_string(in_pair_) + " numbers");
            if (cells.size() < max_cells_per_move) cells.push_back({pair_[0], pair_[1]});
            ++pairs;
        }
        --depth_;
        return true;
    }
    // nlohmann's own message is for programmers: only where it stopped is kept.
    bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception&) override {
        error_at = position;
        return false;
    }

private:
    bool coordinate(std::int64_t v) {
        if (!check_) return true;
        if (depth_ != 2) return wrong("a number outside a pair");
        if (in_pair_ >= 2) return wrong("a list of more than 2 numbers");
        pair_[in_pair_++] = (v < 0 || v > INT_MAX) ? -1 : static_cast<int>(v);
        return true;
    }
    bool wrong(const std::string& what) {
        if (!check_) return true;
        error = (depth_ == 0 ? "the reply is " : "found ") + what;
        return false;
    }

    bool check_;
    int depth_ = 0;
    int in_pair_ = 0;
    std::array<int, 2> pair_{};
};

constexpr std::string_view kDebugHint = "print debug text to stderr, not stdout";

// Why a reply that is not JSON is not, said so that the bot's author sees what to change.
// `stopped`: the bytes the parser had read when it found the error.
std::string not_json_detail(std::string_view text, std::size_t stopped) {
    const std::size_t first = text.find_first_not_of(" \t\r\n");
    const std::size_t end = text.find_last_not_of(" \t\r\n") + 1;
    const std::size_t at = stopped == 0 ? 0 : std::min(stopped - 1, text.size());
    if (at > first && nlohmann::json::accept(text.substr(0, at)))
        return "the reply has more after its JSON, from byte " + std::to_string(at) + ": \"" +
               text_start(text.substr(at)) + "\" (the reply is one JSON list on stdout; " + std::string(kDebugHint) + ")";
    if (text[first] != '[' && text[first] != '{')
        return "the reply is not JSON: it starts with \"" + text_start(text.substr(first)) + "\" (" +
               std::string(kDebugHint) + ")";
    if (at >= end)
        return "the reply's JSON is cut off: it ends after " + std::to_string(end) + " bytes, before the JSON does";
    return "the reply is not valid JSON at byte " + std::to_string(at) + ": \"" + text_start(text.substr(at)) + "\"";
}

// v's decimal digits at `at`; returns the end. v is a coordinate or a seat: never negative.
// Written by hand: std::to_chars measured slower here (protocol-bench).
char* put_digits(char* at, std::int64_t v) {
    char digits[20];
    int n = 0;
    do digits[n++] = static_cast<char>('0' + v % 10);
    while ((v /= 10) > 0);
    while (n > 0) *at++ = digits[--n];
    return at;
}

char* put_text(char* at, std::string_view text) {
    std::memcpy(at, text.data(), text.size());
    return at + text.size();
}

// "00" to "99", for put_coordinate.
constexpr std::array<char, 200> kDigitPairs = [] {
    std::array<char, 200> pairs{};
    for (int i = 0; i < 100; ++i) {
        pairs[2 * i] = static_cast<char>('0' + i / 10);
        pairs[2 * i + 1] = static_cast<char>('0' + i % 10);
    }
    return pairs;
}();

// put_digits for a coordinate (below Board::max_side), two digits at a time: it runs once per
// live cell, where put_digits' divisions were most of a board's encoding.
char* put_coordinate(char* at, unsigned v) {
    if (v < 10) {
        *at = static_cast<char>('0' + v);
        return at + 1;
    }
    if (v < 100) {
        std::memcpy(at, &kDigitPairs[2 * v], 2);
        return at + 2;
    }
    if (v < 1000) {
        *at = static_cast<char>('0' + v / 100);
        std::memcpy(at + 1, &kDigitPairs[2 * (v % 100)], 2);
        return at + 3;
    }
    std::memcpy(at, &kDigitPairs[2 * (v / 100)], 2);
    std::memcpy(at + 2, &kDigitPairs[2 * (v % 100)], 2);
    return at + 4;
}

}  // namespace

void encode_board(const Board& board, int bot_id, std::int64_t tick_id, std::string& out) {
    // A busy board is hundreds of KiB every move: the cells stream from the board straight into
    // the string's bytes, each row's `"(y,` made once and copied as 8 bytes whatever its length
    // (the bound leaves room). The string is only ever grown to the bound (zero-filling just the
    // growth) and cut to what was written.
    static_assert(Board::max_side <= 10000, "a cell's entry is at most 16 bytes");
    const auto cells = static_cast<std::size_t>(board.population(Player::one) + board.population(Player::two));
    const std::size_t bound = 128 + cells * 16;
    if (out.size() < bound) out.resize(bound);
    char* const begin = out.data();
    char* p = put_text(begin, "{\"y_size\":");
    p = put_digits(p, board.height());
    p = put_text(p, ",\"x_size\":");
    p = put_digits(p, board.width());
    p = put_text(p, ",\"board\":{");
    char* const first = p;
    char row[8] = {'"', '('};
    std::size_t row_size = 0;
    int row_y = -1;
    board.for_each_live_cell([&](int y, int x, Player owner) {
        if (y != row_y) {
            row_y = y;
            row_size = static_cast<std::size_t>(put_coordinate(row + 2, static_cast<unsigned>(y)) - row);
            row[row_size++] = ',';
        }
        if (p != first) *p++ = ',';
        std::memcpy(p, row, sizeof row);
        p = put_text(put_coordinate(p + row_size, static_cast<unsigned>(x)), ")\":");
        *p++ = owner == Player::one ? '1' : '2';
    });
    p = put_text(p, "},\"bot_id\":");
    p = put_digits(p, bot_id);
    p = put_text(p, ",\"tick_id\":");
    p = put_digits(p, tick_id);
    *p++ = '}';
    out.resize(static_cast<std::size_t>(p - begin));
}

namespace {

// "(y,x)" as encode_board writes it, or nullopt.
std::optional<Cell> cell_key(std::string_view key) {
    if (key.size() < 5 || key.front() != '(' || key.back() != ')') return std::nullopt;
    key = key.substr(1, key.size() - 2);
    const std::size_t comma = key.find(',');
    if (comma == std::string_view::npos) return std::nullopt;
    const auto number = [](std::string_view digits) -> std::optional<int> {
        if (digits.empty() || digits.size() > 5 || digits.find_first_not_of("0123456789") != std::string_view::npos)
            return std::nullopt;
        return std::stoi(std::string(digits));
    };
    const std::optional<int> y = number(key.substr(0, comma)), x = number(key.substr(comma + 1));
    if (!y || !x) return std::nullopt;
    return Cell{*y, *x};
}

}  // namespace

SentBoard decode_board(std::string_view text) {
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception&) {
        throw RecordError("not JSON: a board is one object, {\"y_size\":H,\"x_size\":W,\"board\":{...},...}");
    }
    if (!j.is_object()) throw RecordError("not a JSON object");
    for (const char* key : {"y_size", "x_size", "board", "bot_id", "tick_id"})
        if (!j.contains(key)) throw RecordError(std::string("no \"") + key + "\"");
    const int height = static_cast<int>(integer(j["y_size"], "y_size", 1, Board::max_side));
    const int width = static_cast<int>(integer(j["x_size"], "x_size", 1, Board::max_side));
    SentBoard sent{Board(height, width), static_cast<int>(integer(j["bot_id"], "bot_id", 1, 2)),
                   integer(j["tick_id"], "tick_id", 0, INT_MAX)};
    if (!j["board"].is_object()) throw RecordError("\"board\" must be an object of \"(y,x)\": owner");
    std::array<std::vector<Cell>, 2> cells;
    for (const auto& [key, owner] : j["board"].items()) {
        const std::optional<Cell> cell = cell_key(key);
        if (!cell || cell->y >= height || cell->x >= width)
            throw RecordError("\"board\": the key \"" + key + "\" is not \"(y,x)\" on the " + std::to_string(width) +
                              "x" + std::to_string(height) + " board");
        if (!owner.is_number_integer() || (owner != 1 && owner != 2))
            throw is_not("\"board\": the owner of \"" + key + "\"", owner, "1 or 2");
        cells[owner.get<int>() - 1].push_back(*cell);
    }
    sent.board.place(Player::one, cells[0]);
    sent.board.place(Player::two, cells[1]);
    return sent;
}

Move parse_reply(std::string_view text) {
    const auto forfeit = [](ForfeitKind kind, std::string detail) { return Move{{}, Forfeit{kind, std::move(detail)}}; };
    // nlohmann's lexer takes a NUL byte for the end of its input and would accept what comes
    // before it, ignoring the rest: JSON text holds no NUL, so a reply with one is not JSON.
    if (const std::size_t nul = text.find('\0'); nul != std::string_view::npos)
        return forfeit(ForfeitKind::not_json,
                       "the reply is not JSON: a NUL byte at offset " + std::to_string(nul) + " of the reply");
    if (text.find_first_not_of(" \t\r\n") == std::string_view::npos)
        return forfeit(ForfeitKind::not_json,
                       "the bot printed nothing on stdout (did it crash before printing, or print to stderr?)");
    // First pass: is it JSON at all? The acceptor is iterative, so deep nesting is harmless.
    if (!nlohmann::json::accept(text)) {
        ReplyShape probe(false);
        nlohmann::json::sax_parse(text, &probe);
        return forfeit(ForfeitKind::not_json, not_json_detail(text, probe.error_at));
    }
    ReplyShape shape(true);
    if (!nlohmann::json::sax_parse(text, &shape))
        return shape.non_integer ? forfeit(ForfeitKind::non_integer, shape.error + " (print whole numbers: 3, not 3.0)")
                                 : forfeit(ForfeitKind::not_pairs,
                                           shape.error + " (the reply is a list of [y, x] pairs, e.g. [[3,4],[5,6]])");
    if (shape.pairs > max_cells_per_move)
        return forfeit(ForfeitKind::too_many_cells, std::to_string(shape.pairs) + " cells, at most " +
                                                        std::to_string(max_cells_per_move) + " per move");
    return Move{std::move(shape.cells), std::nullopt};
}

}  // namespace gol::runner
