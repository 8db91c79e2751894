#include "runner/arena/arena_keys.hpp"

#include "runner/tlv/tlv.hpp"
#include "runner/sys/small_file.hpp"
#include "runner/text/terminal_text.hpp"
#include "runner/text/text_width.hpp"

namespace gol::runner {

namespace {

constexpr std::string_view kBlanks = " \t\r";

// Compares every byte whatever the first difference, so the time taken tells nothing of a secret.
bool same_secret(std::string_view a, std::string_view b) {
    unsigned char diff = a.size() == b.size() ? 0 : 1;
    for (std::size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ (i < b.size() ? b[i] : 0));
    return diff == 0;
}

}  // namespace

ArenaKeys parse_keys(std::string_view text, const std::string& file) {
    ArenaKeys keys;
    int line_no = 0;
    while (!text.empty()) {
        ++line_no;
        const std::size_t end = text.find('\n');
        const std::string_view line = trimmed(text.substr(0, end), kBlanks);
        text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
        if (line.empty() || line.starts_with('#')) continue;
        const std::string where = file + ":" + std::to_string(line_no) + ": ";
        const std::size_t space = line.find_last_of(" \t");
        if (space == std::string_view::npos) throw KeysError(where + "a name and a secret are needed, separated by a space");
        const std::string_view name = trimmed(line.substr(0, space), kBlanks);
        const std::string_view secret = line.substr(space + 1);
        if (name.size() + 1 + secret.size() > tlv::max_identification || !is_printable_text(name) ||
            !is_printable_text(secret))
            throw KeysError(where + "the name and its secret must be UTF-8 without control characters, together at "
                                    "most 249 bytes (an identification is at most 250)");
        if (!keys.emplace(std::string(name), std::string(secret)).second)
            throw KeysError(where + "the name \"" + std::string(name) + "\" has a key already");
    }
    return keys;
}

ArenaKeys read_keys(const std::filesystem::path& file) {
    try {
        return parse_keys(read_small_file(file, std::size_t{1} << 20), file.string());
    } catch (const SmallFileError& e) {
        throw KeysError(file.string() + " " + e.what());
    }
}

std::string claimed_name(std::string_view identification, const ArenaKeys* keys) {
    const std::size_t space = identification.find_last_of(' ');
    if (!keys || space == std::string_view::npos) return std::string(identification);
    return std::string(trimmed(identification.substr(0, space), kBlanks));
}

std::optional<std::string> admitted_name(std::string_view identification, const ArenaKeys* keys, std::string& why) {
    if (!keys) return std::string(identification);
    const std::size_t space = identification.find_last_of(' ');
    const std::string name = claimed_name(identification, keys);
    const auto it = keys->find(name);
    if (space == std::string_view::npos || it == keys->end() ||
        !same_secret(identification.substr(space + 1), it->second)) {
        why = "the name \"" + name + "\" is not in the keys file or its secret is wrong";
        return std::nullopt;
    }
    return it->first;
}

}  // namespace gol::runner
