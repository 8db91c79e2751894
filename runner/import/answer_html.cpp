#include "runner/import/answer_html.hpp"

#include "runner/text/text_width.hpp"

#include <libxml/HTMLparser.h>
#include <libxml/tree.h>

#include <climits>
#include <memory>
#include <stdexcept>
#include <vector>

namespace gol::runner {

namespace {

using Doc = std::unique_ptr<xmlDoc, decltype(&xmlFreeDoc)>;

Doc parse_html(std::string_view html) {
    if (html.size() > INT_MAX) throw std::length_error("an HTML body over 2 GiB");
    // Text that is not a document still parses: a wrapper gives libxml2 an element to hold it.
    const std::string wrapped = "<html><body>" + std::string(html) + "</body></html>";
    return Doc(htmlReadMemory(wrapped.data(), static_cast<int>(wrapped.size()), nullptr, "UTF-8",
                              HTML_PARSE_RECOVER | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING | HTML_PARSE_NONET),
               xmlFreeDoc);
}

bool is_element(const xmlNode* node, const char* name) {
    return node->type == XML_ELEMENT_NODE && xmlStrcasecmp(node->name, reinterpret_cast<const xmlChar*>(name)) == 0;
}

struct XmlFree {
    void operator()(xmlChar* text) const { xmlFree(text); }
};

std::string node_text(const xmlNode* node) {
    const std::unique_ptr<xmlChar, XmlFree> text(xmlNodeGetContent(node));
    return text ? reinterpret_cast<const char*>(text.get()) : "";
}

bool is_blank(std::string_view s) { return s.find_first_not_of(" \t\r\n\f\v") == std::string_view::npos; }

std::string first_text_line(std::string_view s) {
    const std::size_t start = s.find_first_not_of(" \t\r\n\f\v");
    if (start == std::string_view::npos) return "";
    s.remove_prefix(start);
    return std::string(trimmed(s.substr(0, s.find('\n')), " \t\r"));
}

const xmlNode* find_element(const xmlNode* node, const char* name) {
    for (; node; node = node->next) {
        if (is_element(node, name)) return node;
        if (const xmlNode* found = find_element(node->children, name)) return found;
    }
    return nullptr;
}

// Every <pre> below `node` and its siblings, in document order.
void code_blocks(const xmlNode* node, std::vector<const xmlNode*>& found) {
    for (; node; node = node->next)
        if (is_element(node, "pre")) found.push_back(node);
        else code_blocks(node->children, found);
}

// The header from the first block with text: a paragraph that opens with bold text holding a
// comma gives the bold text ("**Python 3, RandomBot** plays..."), any other block the first
// line of its text.
std::optional<std::string> header_of(const xmlNode* body) {
    for (const xmlNode* block = body->children; block; block = block->next) {
        if (block->type != XML_ELEMENT_NODE && block->type != XML_TEXT_NODE) continue;
        // A code block before any text: the answer has no header.
        if (block->type == XML_ELEMENT_NODE && (is_element(block, "pre") || find_element(block->children, "pre")))
            return std::nullopt;
        const std::string text = node_text(block);
        if (is_blank(text)) continue;
        if (block->type == XML_ELEMENT_NODE && !is_element(block, "h1") && !is_element(block, "h2") && !is_element(block, "h3") &&
            !is_element(block, "h4") && !is_element(block, "h5") && !is_element(block, "h6"))
            for (const xmlNode* part = block->children; part; part = part->next) {
                if (part->type == XML_TEXT_NODE && is_blank(node_text(part))) continue;
                if ((is_element(part, "strong") || is_element(part, "b")) && node_text(part).find(',') != std::string::npos)
                    return first_text_line(node_text(part));
                break;
            }
        return first_text_line(text);
    }
    return std::nullopt;
}

}  // namespace

AnswerParts read_answer_html(std::string_view html) {
    AnswerParts parts;
    const Doc doc = parse_html(html);
    const xmlNode* body = doc ? find_element(xmlDocGetRootElement(doc.get()), "body") : nullptr;
    if (!body) return parts;
    parts.header = header_of(body);
    std::vector<const xmlNode*> blocks;
    code_blocks(body->children, blocks);
    parts.code_blocks = static_cast<int>(blocks.size());
    if (!blocks.empty()) parts.code = node_text(blocks.front());
    return parts;
}

std::string html_text(std::string_view html) {
    const Doc doc = parse_html(html);
    const xmlNode* body = doc ? find_element(xmlDocGetRootElement(doc.get()), "body") : nullptr;
    return body ? node_text(body) : std::string(html);
}

}  // namespace gol::runner
