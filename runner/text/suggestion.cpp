#include "runner/text/suggestion.hpp"

#include <algorithm>
#include <numeric>

namespace gol::runner {

std::size_t edit_distance(const std::string& a, const std::string& b) {
    std::vector<std::size_t> row(b.size() + 1);
    std::iota(row.begin(), row.end(), std::size_t{0});
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t replaced = diagonal + (a[i - 1] == b[j - 1] ? 0 : 1);
            diagonal = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, replaced});
        }
    }
    return row[b.size()];
}

std::string suggestion(const std::string& word, const std::vector<std::string>& known) {
    const std::string* best = nullptr;
    std::size_t best_distance = 3;
    for (const std::string& k : known)
        if (std::size_t d = edit_distance(word, k); d < best_distance) best = &k, best_distance = d;
    return best ? "; did you mean " + *best + "?" : "";
}

}  // namespace gol::runner
