// "Did you mean ...?": the known word a mistyped one most likely was.
#pragma once

#include <string>
#include <vector>

namespace gol::runner {

// Levenshtein distance: how many letters to insert, delete or replace to turn `a` into `b`.
std::size_t edit_distance(const std::string& a, const std::string& b);

// "; did you mean X?" for the closest of `known` to `word`, or "" when none is a likely typo
// (more than two edits away is another word).
std::string suggestion(const std::string& word, const std::vector<std::string>& known);

}  // namespace gol::runner
