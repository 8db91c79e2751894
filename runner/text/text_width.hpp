// Widths: of the terminal, of text on it, and text cut to a width. A character outside ASCII
// counts as two columns, as wide as a terminal draws one, so text cut to a width always fits.
#pragma once

#include <string>
#include <string_view>

namespace gol::runner {

// The columns of the terminal at `fd` (TIOCGWINSZ); else $COLUMNS; else 80.
int terminal_columns(int fd);

// The columns `text` takes: one per ASCII byte, two per other character.
int text_width(std::string_view text);

// `text` whole when it is at most `columns` wide; else its longest start that leaves room for
// `mark` within `columns`, followed by `mark`. Never cut inside a UTF-8 character.
std::string cut_text(std::string_view text, int columns, std::string_view mark = {});

// `text` without the `blanks` it begins and ends with.
std::string_view trimmed(std::string_view text, std::string_view blanks);

}  // namespace gol::runner
