#include "runner/sys/temp_dir.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

namespace gol::runner {

namespace fs = std::filesystem;

TempDir::TempDir(const std::string& prefix, const fs::path& parent) {
    const fs::path where = parent.empty() ? fs::temp_directory_path() : parent;
    std::string tmpl = (where / (prefix + "-XXXXXX")).string();
    if (!::mkdtemp(tmpl.data()))
        throw std::runtime_error("cannot create a temporary directory in " + where.string() + ": " +
                                 std::strerror(errno));
    path_ = tmpl;
}

TempDir::TempDir(TempDir&& other) noexcept : path_(std::move(other.path_)) { other.path_.clear(); }

TempDir::~TempDir() {
    if (path_.empty()) return;
    std::error_code ec;  // Nothing useful to do about a failed clean-up in a destructor.
    fs::remove_all(path_, ec);
}

}  // namespace gol::runner
