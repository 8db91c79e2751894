#include "runner/content_hash.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <vector>

namespace gol::runner {

namespace fs = std::filesystem;

Fnv64& Fnv64::add(std::string_view bytes) {
    for (unsigned char c : bytes) {
        h_ ^= c;
        h_ *= 1099511628211ull;
    }
    return *this;
}

Fnv64& Fnv64::add_u64(std::uint64_t v) {
    char bytes[8];
    for (int i = 0; i < 8; ++i) bytes[i] = static_cast<char>(v >> (8 * i));
    return add(std::string_view(bytes, 8));
}

std::string Fnv64::hex() const {
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h_));
    return buf;
}

namespace {

void add_file(Fnv64& h, const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read " + file.string());
    std::vector<char> buf(1 << 16);
    while (in) {
        in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
        h.add(std::string_view(buf.data(), static_cast<std::size_t>(in.gcount())));
    }
}

bool skipped_name(const std::string& name) {
    return name == ".git" || name == "__pycache__" || name.ends_with(".pyc");
}

}  // namespace

std::string hash_directory(const fs::path& dir, const std::set<std::string>& ignore) {
    std::vector<std::string> files;
    for (auto it = fs::recursive_directory_iterator(dir); it != fs::recursive_directory_iterator(); ++it) {
        if (skipped_name(it->path().filename().string())) {
            if (it->is_directory()) it.disable_recursion_pending();
            continue;
        }
        if (!it->is_regular_file()) continue;
        std::string rel = fs::relative(it->path(), dir).generic_string();
        if (!ignore.contains(rel)) files.push_back(std::move(rel));
    }
    std::sort(files.begin(), files.end());
    Fnv64 h;
    for (const std::string& rel : files) {
        h.add(rel).add_u64(rel.size());
        add_file(h, dir / rel);
        h.add_u64(fs::file_size(dir / rel));
    }
    return h.hex();
}

std::string hash_file(const fs::path& file) {
    Fnv64 h;
    add_file(h, file);
    return h.hex();
}

}  // namespace gol::runner
