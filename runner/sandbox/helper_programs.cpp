#include "runner/sandbox/helper_programs.hpp"

#include <unistd.h>

namespace gol::runner {

namespace fs = std::filesystem;

const std::string_view installed_program_dir = GOL_INSTALLED_PROGRAM_DIR;
const std::string_view installed_library_dir = GOL_INSTALLED_LIBRARY_DIR;

std::optional<fs::path> find_helper(HelperKind kind, std::string_view name, const fs::path& runner) {
    const fs::path prefix = runner.parent_path().parent_path();
    const bool library = kind == HelperKind::library;
    const fs::path places[] = {prefix / (library ? installed_library_dir : installed_program_dir) / name,
                               prefix / (library ? "lib" : "libexec") / name};
    const int mode = kind == HelperKind::program ? X_OK : R_OK;
    std::error_code ec;
    for (const fs::path& place : places)
        if (fs::is_regular_file(place, ec) && ::access(place.c_str(), mode) == 0) return place;
    return std::nullopt;
}

std::optional<fs::path> find_helper(HelperKind kind, std::string_view name) {
    std::error_code ec;
    const fs::path runner = fs::read_symlink("/proc/self/exe", ec);
    if (ec) return std::nullopt;
    return find_helper(kind, name, runner);
}

}  // namespace gol::runner
