// A count with its noun as people write it: "1 generation", "2 generations".
#pragma once

#include <string>
#include <string_view>

namespace gol::runner {

// `noun` is the singular; its plural adds an "s".
inline std::string count_text(long long n, std::string_view noun) {
    return std::to_string(n) + " " + std::string(noun) + (n == 1 ? "" : "s");
}

}  // namespace gol::runner
