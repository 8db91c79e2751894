// Text for HTML pages. Bot names and forfeit details come from bots, so every one of them goes
// through these before it reaches a page.
#pragma once

#include <string>
#include <string_view>

namespace gol::runner {

// For element content and quoted attribute values.
std::string html_escape(std::string_view text);

// JSON text made safe inside a <script> element: `<`, `>` and `&` only ever occur inside JSON
// strings, where \u escapes mean the same, and without them the text cannot close the element.
std::string script_safe_json(std::string_view json);

}  // namespace gol::runner
