#include "runner/text/text_width.hpp"

#include <sys/ioctl.h>

#include <cstdlib>

namespace gol::runner {

namespace {

// Where the character that starts at text[i] ends: after its continuation bytes (10xxxxxx).
std::size_t character_end(std::string_view text, std::size_t i) {
    ++i;
    while (i < text.size() && (static_cast<unsigned char>(text[i]) & 0xC0) == 0x80) ++i;
    return i;
}

int character_width(char lead) { return static_cast<unsigned char>(lead) < 0x80 ? 1 : 2; }

}  // namespace

int terminal_columns(int fd) {
    winsize size{};
    if (::ioctl(fd, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) return size.ws_col;
    if (const char* columns = std::getenv("COLUMNS")) {
        char* end = nullptr;
        const long n = std::strtol(columns, &end, 10);
        if (end != columns && *end == '\0' && n > 0 && n <= 100000) return static_cast<int>(n);
    }
    return 80;
}

int text_width(std::string_view text) {
    int width = 0;
    for (std::size_t i = 0; i < text.size(); i = character_end(text, i)) width += character_width(text[i]);
    return width;
}

std::string cut_text(std::string_view text, int columns, std::string_view mark) {
    if (text_width(text) <= columns) return std::string(text);
    const int room = columns - text_width(mark);
    int used = 0;
    std::size_t end = 0;
    while (end < text.size() && used + character_width(text[end]) <= room) {
        used += character_width(text[end]);
        end = character_end(text, end);
    }
    return std::string(text.substr(0, end)).append(mark);
}

std::string_view trimmed(std::string_view text, std::string_view blanks) {
    const std::size_t first = text.find_first_not_of(blanks);
    if (first == std::string_view::npos) return {};
    return text.substr(first, text.find_last_not_of(blanks) - first + 1);
}

}  // namespace gol::runner
