// A private temporary directory, removed with everything in it when the owner goes.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace gol::runner {

class TempDir {
public:
    // Made in `parent`, by default the temporary directory ($TMPDIR or /tmp), with mode 0700.
    explicit TempDir(const std::string& prefix, const std::filesystem::path& parent = {});
    TempDir(TempDir&& other) noexcept;
    TempDir& operator=(TempDir&&) = delete;
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    ~TempDir();

    const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
};

// Removes `path` and, when it is a folder, everything below it, by descriptors (openat,
// unlinkat): a link is removed, never followed, and an entry swapped for a link while the
// removal runs is removed as the link. It holds two descriptors however deep the tree goes.
// Best effort: what cannot be removed stays, and false says so. Absent is removed.
bool remove_tree(const std::filesystem::path& path) noexcept;

// The names in the folder open at `dir` but "." and "..", read through a descriptor of their own,
// or nullopt when it cannot be read.
std::optional<std::vector<std::string>> folder_names(int dir);

}  // namespace gol::runner
