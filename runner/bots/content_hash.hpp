// Content hashes that decide when a bot is rebuilt and when a stored game is still valid.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

// OpenSSL's digest context, kept out of this header.
struct evp_md_ctx_st;

namespace gol::runner {

// SHA-256 (OpenSSL), streamed: league keys and bots' content hashes, which must resist forgery.
class Sha256 {
public:
    Sha256();

    Sha256& add(std::string_view bytes);
    Sha256& add_u64(std::uint64_t v);  // 8 bytes, little-endian
    // The length, then the bytes: two different sequences of fields never hash the same bytes.
    Sha256& add_field(std::string_view bytes) { return add_u64(bytes.size()).add(bytes); }
    // The digest of what was added so far (adding may go on), as 64 lowercase hex digits.
    std::string hex() const;

private:
    struct Free {
        void operator()(evp_md_ctx_st* ctx) const;
    };
    std::unique_ptr<evp_md_ctx_st, Free> ctx_;
};

// SHA-256 over every entry below `dir` in sorted order: its relative path, its type and
// executable bits, and a regular file's bytes or a symlink's target text. Symlinks are never
// followed and fifos, sockets and devices are never opened (they count by type only).
// What copies leave out (left_out_of_copies, copy_tree.hpp: version control, interpreters'
// caches) is skipped. A link that leads out of `dir` (link_leads_out: resolved through the
// folder's other links, a left-out one's too) is refused, and so is a folder over the limits of
// a copy (max_tree_files, max_tree_bytes), checked before a byte is read: throws
// std::runtime_error naming why.
std::string hash_directory(const std::filesystem::path& dir);

// The same for one file (its name, type, executable bits and bytes, or its target if a symlink).
std::string hash_file(const std::filesystem::path& file);

}  // namespace gol::runner
