// Where the runner finds its helpers: the program it runs every bot's processes through
// (gol-launcher), the warm interpreters' scripts the launcher runs (gol-warm-python.py,
// gol-warm-ruby.rb) and the preload library it hands to argv bots (libgol_long_argument.so).
// They are found from the runner's own binary, never through PATH or the current folder, in
// one of two layouts:
//
//   installed (cmake --install, the Debian package)   the build tree
//   PREFIX/bin/runner                                  build/bin/runner
//   PREFIX/libexec/gol-runner/NAME                     build/libexec/NAME
//   PREFIX/lib/gol-runner/libgol_long_argument.so          build/lib/libgol_long_argument.so
//
// Installed, the helpers have folders of their own: the sandbox shows bots a copy of the
// launcher's whole folder (launcher.cpp), and PREFIX/libexec is shared with other packages.
#pragma once

#include <filesystem>
#include <optional>
#include <string_view>

namespace gol::runner {

// The installed layout's folders, relative to PREFIX; CMakeLists.txt sets them and installs there.
extern const std::string_view installed_program_dir;  // programs and scripts
extern const std::string_view installed_library_dir;  // the preload library

// Where a sandbox shows the helpers, whatever their place on the host: folders of their own,
// which no bot's read-only folder can hold (a runner installed in ~/.local, a bot in ~).
inline constexpr std::string_view sandboxed_program_dir = "/run/gol-runner/libexec";
inline constexpr std::string_view sandboxed_library_dir = "/run/gol-runner/lib";

// What a helper is, which decides its folder and the access it needs.
enum class HelperKind {
    program,  // libexec, executable
    script,   // libexec, readable
    library,  // lib, readable
};

// Helper `name` of a runner whose binary is `runner`: in the installed layout, else in the build
// tree, wherever it is with the access its kind needs; nullopt when in neither.
std::optional<std::filesystem::path> find_helper(HelperKind kind, std::string_view name,
                                                 const std::filesystem::path& runner);
// The same for the runner of this process (/proc/self/exe).
std::optional<std::filesystem::path> find_helper(HelperKind kind, std::string_view name);

}  // namespace gol::runner
