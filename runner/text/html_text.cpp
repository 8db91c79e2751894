#include "runner/text/html_text.hpp"

namespace gol::runner {

namespace {

// `text` with each character `replacement` maps to something (non-empty) replaced by that.
template <typename Replacement>
std::string replaced(std::string_view text, Replacement replacement) {
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        const std::string_view r = replacement(c);
        if (r.empty()) out += c;
        else out += r;
    }
    return out;
}

}  // namespace

std::string html_escape(std::string_view text) {
    return replaced(text, [](char c) -> std::string_view {
        switch (c) {
            case '&': return "&amp;";
            case '<': return "&lt;";
            case '>': return "&gt;";
            case '"': return "&quot;";
            case '\'': return "&#39;";
            default: return {};
        }
    });
}

std::string script_safe_json(std::string_view json) {
    return replaced(json, [](char c) -> std::string_view {
        switch (c) {
            case '<': return "\\u003c";
            case '>': return "\\u003e";
            case '&': return "\\u0026";
            default: return {};
        }
    });
}

}  // namespace gol::runner
