// Reads the runner's CSV tables back in the tests.
#pragma once

#include <string>
#include <vector>

namespace gol::runner::testing {

// Splits simple CSV (quoted fields with doubled quotes) into rows of fields.
inline std::vector<std::vector<std::string>> parse_csv(const std::string& text) {
    std::vector<std::vector<std::string>> rows(1, std::vector<std::string>(1));
    bool quoted = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        char c = text[i];
        if (quoted) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') rows.back().back() += '"', ++i;
            else if (c == '"') quoted = false;
            else rows.back().back() += c;
        } else if (c == '"') quoted = true;
        else if (c == ',') rows.back().emplace_back();
        else if (c == '\n') rows.emplace_back(1);
        else rows.back().back() += c;
    }
    if (rows.back() == std::vector<std::string>(1)) rows.pop_back();
    return rows;
}

}  // namespace gol::runner::testing
