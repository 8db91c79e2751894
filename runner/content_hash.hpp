// Content hashes that decide when a bot is rebuilt and when a stored game is still valid.
#pragma once

#include <cstdint>
#include <filesystem>
#include <set>
#include <string>
#include <string_view>

namespace gol::runner {

// 64-bit FNV-1a, streamed. Not cryptographic: it detects change, it does not resist forgery.
class Fnv64 {
public:
    Fnv64& add(std::string_view bytes);
    Fnv64& add_u64(std::uint64_t v);
    std::uint64_t value() const { return h_; }
    std::string hex() const;

private:
    std::uint64_t h_ = 1469598103934665603ull;
};

// Hashes every regular file below `dir` (relative path and bytes, in sorted order), skipping
// version-control and interpreter caches and the relative paths in `ignore`.
std::string hash_directory(const std::filesystem::path& dir, const std::set<std::string>& ignore = {});

std::string hash_file(const std::filesystem::path& file);

}  // namespace gol::runner
