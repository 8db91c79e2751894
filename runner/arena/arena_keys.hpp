// --keys: who may play under which name (docs/arena.md, "Keys"). The file holds a line per
// name, the secret its last word; a client identifies as the name, a space and the secret.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace gol::runner {

struct KeysError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

using ArenaKeys = std::map<std::string, std::string, std::less<>>;  // name -> secret

// Throws KeysError naming the file and line of what is wrong.
ArenaKeys read_keys(const std::filesystem::path& file);
ArenaKeys parse_keys(std::string_view text, const std::string& file);

// The name an identification claims: with keys, all before its last space, trimmed; without,
// the whole identification.
std::string claimed_name(std::string_view identification, const ArenaKeys* keys);

// The name an identification plays under: with keys, the name before its last space when the
// secret after it is that name's; without, the whole identification. None when it may not play;
// `why` then says why, without the secret.
std::optional<std::string> admitted_name(std::string_view identification, const ArenaKeys* keys, std::string& why);

}  // namespace gol::runner
