// Text for terminals and log lines. Bot names, paths, forfeit details and stderr come from bots:
// a control character in them would move the cursor, clear the screen or forge a log line, so
// every such text goes through these before it is printed.
#pragma once

#include <string>
#include <string_view>

namespace gol::runner {

// One line: every control character (C0 including newline, DEL, and C1 such as U+009B) and
// every byte that is not part of valid UTF-8 written as \xHH, byte by byte.
std::string terminal_line(std::string_view text);

// The same, but newlines and tabs kept: text of several lines, such as a bot's stderr.
std::string terminal_lines(std::string_view text);

// A bot's text, escaped already (terminal_lines, terminal_line), as lines of the runner's log or
// output: each after `indent` and the mark "| ", which no line of the runner's own has after its
// indent, so that no line a bot writes reads as the runner's (a bot that prints "tick 0 seat 2
// (idle): forfeit timeout: ..."). Each ended by a newline; nothing for empty text.
std::string bot_lines(std::string_view text, std::string_view indent);

// Whether `text` is valid UTF-8 without any control character: printable as it is.
bool is_printable_text(std::string_view text);

// Whether every byte of `text` is an ASCII letter or digit, or one of `others`: a name's rule.
bool letters_digits_or(std::string_view text, std::string_view others);

}  // namespace gol::runner
