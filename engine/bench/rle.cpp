#include "rle.hpp"

#include <cctype>
#include <cstdio>
#include <sstream>

namespace gol::bench {

RlePattern parse_rle(const std::string& text) {
    RlePattern p;
    std::istringstream in(text);
    std::string line;
    bool header = false;
    int y = 0, x = 0;
    long run = 0;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') continue;
        if (!header) {
            // "x = 1000, y = 1000, rule = B3/S23:P1000,1000": comma-separated key = value.
            std::string compact;
            for (char c : line)
                if (!std::isspace(static_cast<unsigned char>(c))) compact += c;
            std::size_t rule_at = compact.find(",rule=");
            if (rule_at != std::string::npos) p.rule = compact.substr(rule_at + 6);
            if (std::sscanf(compact.c_str(), "x=%d,y=%d", &p.width, &p.height) != 2)
                throw std::runtime_error("RLE: bad header line: " + line);
            header = true;
            continue;
        }
        for (char c : line) {
            if (std::isdigit(static_cast<unsigned char>(c))) {
                run = run * 10 + (c - '0');
                continue;
            }
            const long n = run ? run : 1;
            run = 0;
            switch (c) {
                case 'b': x += static_cast<int>(n); break;
                case 'o':
                    for (long i = 0; i < n; ++i) p.cells.push_back({y, x++});
                    break;
                case '$': y += static_cast<int>(n), x = 0; break;
                case '!': return p;
                default:
                    if (std::isspace(static_cast<unsigned char>(c))) break;
                    throw std::runtime_error(std::string("RLE: unexpected character '") + c + "'");
            }
        }
    }
    if (!header) throw std::runtime_error("RLE: no header line");
    return p;
}

}  // namespace gol::bench
