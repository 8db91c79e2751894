#include "runner/tlv/tlv.hpp"

#include "runner/text/terminal_text.hpp"

#include <stdexcept>

namespace gol::runner::tlv {

namespace {

constexpr std::size_t max_value = 255;

std::string message(Type type, std::string_view value) {
    std::string out;
    out.reserve(header_size + value.size());
    out += static_cast<char>(type);
    out += static_cast<char>(static_cast<unsigned char>(value.size()));
    out += value;
    return out;
}

void put16(std::string& out, unsigned v) {
    out += static_cast<char>((v >> 8) & 0xff);
    out += static_cast<char>(v & 0xff);
}

unsigned get16(std::string_view b, std::size_t at) {
    return (static_cast<unsigned>(static_cast<unsigned char>(b[at])) << 8) | static_cast<unsigned char>(b[at + 1]);
}

std::uint32_t get32(std::string_view b, std::size_t at) { return (std::uint32_t{get16(b, at)} << 16) | get16(b, at + 2); }

std::string type_name(char type) {
    if (type >= 0x21 && type <= 0x7e) return std::string("'") + type + "'";
    static const char hex[] = "0123456789ABCDEF";
    const auto byte = static_cast<unsigned char>(type);
    return std::string("0x") + hex[byte >> 4] + hex[byte & 15];
}

// The checks a text shares in the writer and the reader; the message for either.
std::optional<std::string> text_problem(Type type, std::string_view text) {
    if (type == Type::identification && (text.empty() || text.size() > max_identification))
        return "an identification of " + std::to_string(text.size()) + " bytes (1 to 250 allowed)";
    if (text.size() > max_value) return "a text of " + std::to_string(text.size()) + " bytes (at most 255)";
    if (!is_printable_text(text)) return "a text that is not UTF-8 or holds control characters";
    return std::nullopt;
}

std::string text_message(Type type, std::string_view text) {
    if (auto problem = text_problem(type, text)) throw std::invalid_argument("cannot send " + *problem);
    return tlv::message(type, text);
}

// The type, and the length once it has arrived, within what the type allows.
void check_header(char type, std::optional<std::size_t> given_length) {
    if (std::string_view("ISMGTB").find(type) == std::string_view::npos)
        throw ProtocolError("a message of unknown type " + type_name(type) + " (known: I S M G T B)");
    if (!given_length) return;
    const std::size_t length = *given_length;
    const std::string n = std::to_string(length);
    switch (static_cast<Type>(type)) {
        case Type::identification:
            if (length == 0 || length > max_identification)
                throw ProtocolError("'I' of length " + n + " (an identification is 1 to 250 bytes)");
            return;
        case Type::start: return;
        case Type::move:
            if (length % 4 != 0)
                throw ProtocolError("'M' of length " + n + ", not a multiple of 4 (pairs of 16-bit X and Y)");
            if (length > 4 * max_pairs)
                throw ProtocolError("'M' of length " + n + ": " + std::to_string(length / 4) + " cells (at most 30)");
            return;
        case Type::generation:
        case Type::turn:
            if (length != 0) throw ProtocolError(type_name(type) + " of length " + n + ", not 0");
            return;
        case Type::bye:
            if (length != 8) throw ProtocolError("'B' of length " + n + ", not 8 (two 32-bit counts)");
            return;
    }
}

// `message` decoded from one whole type, length and value.
Message decode(char type, std::string_view value) {
    check_header(type, value.size());
    Message m;
    m.type = static_cast<Type>(type);
    switch (m.type) {
        case Type::identification:
        case Type::start:
            if (auto problem = text_problem(m.type, value)) throw ProtocolError(type_name(type) + " with " + *problem);
            m.text = value;
            break;
        case Type::move:
            for (std::size_t at = 0; at < value.size(); at += 4)
                m.cells.push_back(Cell{static_cast<int>(get16(value, at + 2)), static_cast<int>(get16(value, at))});
            break;
        case Type::bye: m.counts = {get32(value, 0), get32(value, 4)}; break;
        case Type::generation:
        case Type::turn: break;
    }
    return m;
}

}  // namespace

std::string identification(std::string_view text) { return text_message(Type::identification, text); }
std::string start(std::string_view opponent) { return text_message(Type::start, opponent); }
std::string generation() { return message(Type::generation, {}); }
std::string turn() { return message(Type::turn, {}); }

std::string move(std::span<const Cell> cells) {
    if (cells.size() > max_pairs)
        throw std::invalid_argument("cannot send a move of " + std::to_string(cells.size()) + " cells (at most 30)");
    std::string value;
    for (const Cell& c : cells) {
        if (c.x < 0 || c.x > 0xffff || c.y < 0 || c.y > 0xffff)
            throw std::invalid_argument("cannot send the cell (" + std::to_string(c.x) + ", " + std::to_string(c.y) +
                                        "): coordinates are 0 to 65535");
        put16(value, static_cast<unsigned>(c.x));
        put16(value, static_cast<unsigned>(c.y));
    }
    return message(Type::move, value);
}

std::string bye(std::uint32_t own, std::uint32_t other) {
    std::string value;
    for (const std::uint32_t count : {own, other}) {
        put16(value, count >> 16);
        put16(value, count & 0xffff);
    }
    return message(Type::bye, value);
}

std::string encode(const Message& m) {
    switch (m.type) {
        case Type::identification: return identification(m.text);
        case Type::start: return start(m.text);
        case Type::move: return tlv::move(m.cells);
        case Type::generation: return generation();
        case Type::turn: return turn();
        case Type::bye: return bye(m.counts[0], m.counts[1]);
    }
    throw std::invalid_argument("cannot send a message of unknown type " + type_name(static_cast<char>(m.type)));
}

void Reader::feed(std::string_view bytes) {
    if (error_) return;
    // What was taken is dropped before the buffer grows, so it holds at most one message and
    // what came after it.
    if (taken_ > 0) {
        buffer_.erase(0, taken_);
        taken_ = 0;
    }
    buffer_ += bytes;
}

std::optional<Message> Reader::next() {
    if (error_) throw ProtocolError(*error_);
    const std::string_view rest = std::string_view(buffer_).substr(taken_);
    try {
        // A type or a length that cannot be is refused as soon as it arrives, not once the
        // bytes it promises have (they may never come).
        if (rest.empty()) return std::nullopt;
        if (rest.size() < header_size) {
            check_header(rest[0], std::nullopt);
            return std::nullopt;
        }
        const std::size_t length = static_cast<unsigned char>(rest[1]);
        if (rest.size() < header_size + length) {
            check_header(rest[0], length);
            return std::nullopt;
        }
        Message m = decode(rest[0], rest.substr(header_size, length));
        taken_ += header_size + length;
        return m;
    } catch (const ProtocolError& e) {
        error_ = e.what();
        throw;
    }
}

}  // namespace gol::runner::tlv
