// What `runner import` reads in an answer's HTML body (libxml2's HTML parser): the header line
// and the first code block.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace gol::runner {

struct AnswerParts {
    // The first line of the body's text, or of a bold run that opens its first paragraph
    // ("**Python 3, RandomBot** does ..."); nullopt when a code block comes before any text.
    std::optional<std::string> header;
    std::optional<std::string> code;  // the first <pre> block's text, entities decoded
    int code_blocks = 0;              // how many <pre> blocks the body has
};

AnswerParts read_answer_html(std::string_view html);

// The text of an HTML fragment, its entities decoded ("Jos&#233;" -> "José").
std::string html_text(std::string_view html);

}  // namespace gol::runner
