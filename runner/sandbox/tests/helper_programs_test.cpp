// Finding the runner's helpers in both layouts (helper_programs.hpp), on made-up trees.
#include "runner/sandbox/helper_programs.hpp"

#include "runner/sys/temp_dir.hpp"

#include <doctest/doctest.h>

#include <fstream>
#include <string>

using namespace gol::runner;
namespace fs = std::filesystem;

namespace {

// An empty file at `path` with `perms`, and its folders.
void put(const fs::path& path, fs::perms perms) {
    fs::create_directories(path.parent_path());
    std::ofstream(path).put('\n');
    fs::permissions(path, perms);
}

constexpr fs::perms executable = fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                                 fs::perms::others_read | fs::perms::others_exec;
constexpr fs::perms readable = fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read |
                               fs::perms::others_read;

// A runner's binary at PREFIX/bin/runner in a new folder: the tree around it is the test's to lay out.
struct Tree {
    TempDir root;
    fs::path prefix;
    fs::path runner;

    Tree(const std::string& marker, const std::string& prefix_name)
        : root("gol-helpers-" + marker + "-"), prefix(root.path() / prefix_name), runner(prefix / "bin" / "runner") {
        put(runner, executable);
    }
};

}  // namespace

TEST_CASE("helpers: an installed runner finds them in its own folders of libexec/ and lib/") {
    const Tree tree("installed", "usr");
    const fs::path& prefix = tree.prefix;
    const fs::path& runner = tree.runner;
    put(prefix / installed_program_dir / "gol-launcher", executable);
    put(prefix / installed_program_dir / "gol-warm-python.py", readable);
    put(prefix / installed_library_dir / "libgol_long_argument.so", readable);

    CHECK(installed_program_dir == "libexec/gol-runner");
    CHECK(installed_library_dir == "lib/gol-runner");
    CHECK(find_helper(HelperKind::program, "gol-launcher", runner) == prefix / "libexec/gol-runner/gol-launcher");
    CHECK(find_helper(HelperKind::script, "gol-warm-python.py", runner) ==
          prefix / "libexec/gol-runner/gol-warm-python.py");
    CHECK(find_helper(HelperKind::library, "libgol_long_argument.so", runner) ==
          prefix / "lib/gol-runner/libgol_long_argument.so");
    // Not in the kind's folder, or not there at all.
    CHECK_FALSE(find_helper(HelperKind::library, "gol-launcher", runner));
    CHECK_FALSE(find_helper(HelperKind::program, "gol-no-such-helper", runner));
}

TEST_CASE("helpers: a runner in its build tree finds them in libexec/ and lib/ beside bin/") {
    const Tree tree("build", "build");
    const fs::path& build = tree.prefix;
    const fs::path& runner = tree.runner;
    put(build / "libexec" / "gol-launcher", executable);
    put(build / "libexec" / "gol-warm-ruby.rb", readable);
    put(build / "lib" / "libgol_long_argument.so", readable);

    CHECK(find_helper(HelperKind::program, "gol-launcher", runner) == build / "libexec/gol-launcher");
    CHECK(find_helper(HelperKind::script, "gol-warm-ruby.rb", runner) == build / "libexec/gol-warm-ruby.rb");
    CHECK(find_helper(HelperKind::library, "libgol_long_argument.so", runner) == build / "lib/libgol_long_argument.so");
}

TEST_CASE("helpers: the installed layout comes first, and a program must be executable") {
    const Tree tree("both", "usr");
    const fs::path& prefix = tree.prefix;
    const fs::path& runner = tree.runner;
    put(prefix / installed_program_dir / "gol-launcher", executable);
    put(prefix / "libexec" / "gol-launcher", executable);
    CHECK(find_helper(HelperKind::program, "gol-launcher", runner) == prefix / "libexec/gol-runner/gol-launcher");

    // No execute bit for anyone: not even root may run it.
    put(prefix / installed_program_dir / "gol-not-executable", readable);
    CHECK_FALSE(find_helper(HelperKind::program, "gol-not-executable", runner));
    CHECK(find_helper(HelperKind::script, "gol-not-executable", runner));
    // A folder of the name is no helper.
    fs::create_directories(prefix / "libexec" / "gol-warm-ruby.rb");
    CHECK_FALSE(find_helper(HelperKind::script, "gol-warm-ruby.rb", runner));
}

TEST_CASE("helpers: this test program, in the build tree's bin/, finds the helpers built beside it") {
    const std::optional<fs::path> launcher = find_helper(HelperKind::program, "gol-launcher");
    REQUIRE(launcher);
    CHECK(launcher->filename() == "gol-launcher");
    CHECK(launcher->parent_path().filename() == "libexec");
    CHECK(find_helper(HelperKind::script, "gol-warm-python.py"));
    CHECK(find_helper(HelperKind::script, "gol-warm-ruby.rb"));
    CHECK(find_helper(HelperKind::library, "libgol_long_argument.so"));
}
