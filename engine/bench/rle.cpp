#include "rle.hpp"

#include <cctype>
#include <regex>
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
            static const std::regex kHeader(R"(\s*x\s*=\s*(\d+)\s*,\s*y\s*=\s*(\d+)\s*(?:,\s*rule\s*=\s*(\S+))?.*)");
            std::smatch m;
            if (!std::regex_match(line, m, kHeader)) throw std::runtime_error("RLE: bad header line: " + line);
            p.width = std::stoi(m[1]);
            p.height = std::stoi(m[2]);
            p.rule = m[3];
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
