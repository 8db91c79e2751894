#include "runner/bots/content_hash.hpp"

#include "runner/sys/copy_tree.hpp"
#include "runner/sys/unique_fd.hpp"

#include <openssl/evp.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <vector>

namespace gol::runner {

namespace fs = std::filesystem;

void Sha256::Free::operator()(evp_md_ctx_st* ctx) const { EVP_MD_CTX_free(ctx); }

Sha256::Sha256() : ctx_(EVP_MD_CTX_new()) {
    if (!ctx_ || EVP_DigestInit_ex(ctx_.get(), EVP_sha256(), nullptr) != 1)
        throw std::runtime_error("SHA-256: OpenSSL cannot start a digest");
}

Sha256& Sha256::add(std::string_view bytes) {
    if (EVP_DigestUpdate(ctx_.get(), bytes.data(), bytes.size()) != 1)
        throw std::runtime_error("SHA-256: OpenSSL digest update failed");
    return *this;
}

Sha256& Sha256::add_u64(std::uint64_t v) {
    char bytes[8];
    for (int i = 0; i < 8; ++i) bytes[i] = static_cast<char>(v >> (8 * i));
    return add(std::string_view(bytes, 8));
}

std::string Sha256::hex() const {
    // Finishing a digest ends its context, so finish a copy and let this one go on.
    std::unique_ptr<evp_md_ctx_st, Free> copy(EVP_MD_CTX_new());
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int size = 0;
    if (!copy || EVP_MD_CTX_copy_ex(copy.get(), ctx_.get()) != 1 || EVP_DigestFinal_ex(copy.get(), digest, &size) != 1)
        throw std::runtime_error("SHA-256: OpenSSL cannot finish a digest");
    static constexpr char kHex[] = "0123456789abcdef";
    std::string out;
    for (unsigned int i = 0; i < size; ++i) out += {kHex[digest[i] >> 4], kHex[digest[i] & 15]};
    return out;
}

namespace {

std::string_view type_name(mode_t mode) {
    switch (mode & S_IFMT) {
        case S_IFREG: return "file";
        case S_IFLNK: return "symlink";
        case S_IFDIR: return "directory";
        case S_IFIFO: return "fifo";
        case S_IFSOCK: return "socket";
        case S_IFCHR: return "character device";
        case S_IFBLK: return "block device";
    }
    return "unknown";
}

[[noreturn]] void fail(const fs::path& path, const std::string& what) {
    throw std::runtime_error("cannot hash " + path.string() + ": " + what);
}

// A regular file's size, then its bytes. Opened without following a symlink and without
// blocking, and checked to be the regular file it was listed as: a file swapped for a fifo or a
// link to /proc after listing fails instead of hanging or reading without end.
void add_file_bytes(Sha256& h, const fs::path& path) {
    UniqueFd fd(::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
    if (!fd) fail(path, std::strerror(errno));
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0) fail(path, std::strerror(errno));
    if (!S_ISREG(st.st_mode)) fail(path, "it stopped being a regular file while being hashed");
    const auto size = static_cast<std::uint64_t>(st.st_size);
    h.add_u64(size);
    std::vector<char> buf(1 << 16);
    std::uint64_t total = 0;
    for (;;) {
        const ssize_t n = ::read(fd.get(), buf.data(), buf.size());
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) fail(path, std::strerror(errno));
        if (n == 0) break;
        total += static_cast<std::uint64_t>(n);
        if (total > size) break;
        h.add(std::string_view(buf.data(), static_cast<std::size_t>(n)));
    }
    if (total != size) fail(path, "it changed size while being hashed");
}

std::string link_target(const fs::path& path) {
    std::error_code ec;
    const fs::path target = fs::read_symlink(path, ec);
    if (ec) fail(path, ec.message());
    return target.native();
}

// One entry as lstat sees it: its relative path, its type and executable bits, then a regular
// file's bytes or a symlink's target text. Other types count by type alone.
void add_entry(Sha256& h, const fs::path& path, std::string_view rel) {
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0) fail(path, std::strerror(errno));
    h.add_field(rel).add_field(type_name(st.st_mode)).add_u64(st.st_mode & 0111);
    if (S_ISREG(st.st_mode)) add_file_bytes(h, path);
    else if (S_ISLNK(st.st_mode)) h.add_field(link_target(path));
}

// A bot's files as its copies will take them: a sparse file at its full size, as a copy writes it.
[[noreturn]] void too_big(const fs::path& path, std::uint64_t bytes) {
    fail(path, "the bot's files take " + std::to_string(bytes >> 20) + " MiB, over the " +
                   std::to_string(max_tree_bytes >> 20) + " MiB a bot may take (a sparse file counts at its full size)");
}

std::uint64_t size_of(const fs::path& path) {
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0) fail(path, std::strerror(errno));
    return S_ISREG(st.st_mode) ? static_cast<std::uint64_t>(st.st_size) : 0;
}

}  // namespace

std::string hash_directory(const fs::path& dir) {
    // Directories are not entries of their own: they are in their files' paths. The iterator
    // does not follow directory symlinks, and each entry's type is its own (symlink_status).
    // The limits are checked before a byte is read: a bot of a million files or a 4 GiB sparse
    // file costs a walk, not a copy.
    std::vector<std::string> entries;
    std::uint64_t bytes = 0;
    std::size_t inodes = 0;  // folders count toward the limit as the copy counts them
    // Each link is resolved through the others once all are known: a link left out of the copies
    // too, which is not refused itself but leads where it leads here, where the bot may run.
    TreeLinks links;
    std::vector<std::string> kept_links;
    for (auto it = fs::recursive_directory_iterator(dir); it != fs::recursive_directory_iterator(); ++it) {
        const fs::file_type type = it->symlink_status().type();
        const bool is_dir = type == fs::file_type::directory;
        const std::string rel = it->path().lexically_relative(dir).generic_string();
        if (type == fs::file_type::symlink) links.emplace(rel, link_target(it->path()));
        if (left_out_of_copies(it->path().filename().string())) {
            if (is_dir) it.disable_recursion_pending();
            continue;
        }
        if (type == fs::file_type::symlink) kept_links.push_back(rel);
        if (++inodes > max_tree_files)
            fail(dir, "the bot has more than " + std::to_string(max_tree_files) +
                          " files, folders and links, the most a bot may have");
        if (is_dir) continue;
        entries.push_back(rel);
        if ((bytes += size_of(it->path())) > max_tree_bytes) too_big(dir, bytes);
    }
    std::sort(kept_links.begin(), kept_links.end());
    for (const std::string& rel : kept_links)
        if (std::optional<std::string> why = link_leads_out(links, rel))
            fail(dir / rel, "the link leads out of the bot's folder (" + *why + "): a bot's links must point to its own files");
    std::sort(entries.begin(), entries.end());
    Sha256 h;
    h.add_u64(entries.size());
    for (const std::string& rel : entries) add_entry(h, dir / rel, rel);
    return h.hex();
}

std::string hash_file(const fs::path& file) {
    if (const std::uint64_t bytes = size_of(file); bytes > max_tree_bytes) too_big(file, bytes);
    Sha256 h;
    add_entry(h, file, file.filename().native());
    return h.hex();
}

}  // namespace gol::runner
