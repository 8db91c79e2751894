#include "runner/text/terminal_text.hpp"

#include <algorithm>
#include <cctype>

namespace gol::runner {

namespace {

// The length of the valid UTF-8 sequence at text[i] (RFC 3629: no overlong forms, surrogates
// or code points past U+10FFFF), or 0 when the bytes there are not one.
std::size_t sequence_length(std::string_view text, std::size_t i) {
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[i + k]); };
    const unsigned char lead = byte(0);
    if (lead < 0x80) return 1;
    std::size_t n = 0;
    unsigned char lo = 0x80, hi = 0xBF;  // the range of the second byte
    if (lead >= 0xC2 && lead <= 0xDF) {
        n = 2;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
        n = 3;
        if (lead == 0xE0) lo = 0xA0;
        if (lead == 0xED) hi = 0x9F;
    } else if (lead >= 0xF0 && lead <= 0xF4) {
        n = 4;
        if (lead == 0xF0) lo = 0x90;
        if (lead == 0xF4) hi = 0x8F;
    } else {
        return 0;
    }
    if (text.size() - i < n || byte(1) < lo || byte(1) > hi) return 0;
    for (std::size_t k = 2; k < n; ++k)
        if ((byte(k) & 0xC0) != 0x80) return 0;  // not a continuation byte
    return n;
}

// C0 controls, DEL, and the C1 controls U+0080..U+009F (two bytes, C2 80..C2 9F), which some
// terminals obey as well.
bool is_control(std::string_view sequence) {
    const auto lead = static_cast<unsigned char>(sequence[0]);
    if (sequence.size() == 1) return lead < 0x20 || lead == 0x7F;
    return lead == 0xC2 && static_cast<unsigned char>(sequence[1]) <= 0x9F;
}

std::string escaped(std::string_view text, bool keep_line_breaks) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        const std::size_t n = sequence_length(text, i);
        const std::string_view sequence = text.substr(i, n == 0 ? 1 : n);
        const bool kept = keep_line_breaks && (sequence == "\n" || sequence == "\t");
        if (n != 0 && (kept || !is_control(sequence))) out += sequence;
        else
            for (const char c : sequence) {
                constexpr std::string_view hex = "0123456789abcdef";
                out.append("\\x").append(1, hex[static_cast<unsigned char>(c) >> 4]).append(1, hex[c & 0xF]);
            }
        i += sequence.size();
    }
    return out;
}

}  // namespace

std::string terminal_line(std::string_view text) { return escaped(text, false); }

std::string terminal_lines(std::string_view text) { return escaped(text, true); }

std::string bot_lines(std::string_view text, std::string_view indent) {
    std::string out;
    while (!text.empty()) {
        const std::size_t end = std::min(text.find('\n'), text.size());
        out.append(indent).append("| ").append(text.substr(0, end)).push_back('\n');
        text.remove_prefix(std::min(end + 1, text.size()));
    }
    return out;
}

bool is_printable_text(std::string_view text) {
    for (std::size_t i = 0; i < text.size();) {
        const std::size_t n = sequence_length(text, i);
        if (n == 0 || is_control(text.substr(i, n))) return false;
        i += n;
    }
    return true;
}

bool letters_digits_or(std::string_view text, std::string_view others) {
    return std::all_of(text.begin(), text.end(), [&](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || others.find(c) != std::string_view::npos;
    });
}

}  // namespace gol::runner
