// Shared by the end-to-end tests: a private folder for bots and temporary files, the build
// cache all fixtures share, and the real runner binary run in it.
#pragma once

#include "runner/sys/process.hpp"
#include "runner/sys/temp_dir.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gol::runner::testing {

// Whether `text` (a run's output, a file) holds `part`.
inline bool contains(std::string_view text, std::string_view part) { return text.find(part) != std::string_view::npos; }

// A whole file's bytes; empty when it cannot be read. Reading /proc/PID/cmdline of a process
// that is exiting fails part-way (libstdc++ throws from the read), which is "cannot be read" too.
inline std::string read_text(const std::filesystem::path& path) {
    try {
        std::ifstream in(path, std::ios::binary);
        return std::string((std::istreambuf_iterator<char>(in)), {});
    } catch (const std::ios_base::failure&) {
        return {};
    }
}

// A root runner's sandboxed bots are another user, who must reach the runner's work area in
// TMPDIR, which the fixture sets to its own folder.
inline TempDir searchable(TempDir dir) {
    std::filesystem::permissions(dir.path(), std::filesystem::perms::others_exec | std::filesystem::perms::group_exec,
                                 std::filesystem::perm_options::add);
    return dir;
}

// A number for `sleep` that no other test's processes carry, so that a test looking for what
// its bots left running sees only its own: `tag` (0..99) tells a test program's markers apart,
// its pid the programs ctest runs at once. Both have a fixed width: no marker is part of another.
inline std::string unique_marker(int tag) {
    char text[16];
    std::snprintf(text, sizeof text, "%02d.%07d", tag, static_cast<int>(::getpid()));
    return text;
}

// Copies the test bots in `from` to `to`, their fixed sleep lengths replaced by this fixture's
// markers (`marks`: each fixed text and the marker that replaces it).
inline void copy_marked(const std::filesystem::path& from, const std::filesystem::path& to,
                        const std::vector<std::pair<std::string, std::string>>& marks) {
    namespace fs = std::filesystem;
    fs::copy(from, to, fs::copy_options::recursive);
    std::vector<fs::path> files;
    if (fs::is_directory(to)) {
        for (const auto& entry : fs::recursive_directory_iterator(to))
            if (entry.is_regular_file()) files.push_back(entry.path());
    } else {
        files.push_back(to);
    }
    for (const fs::path& file : files) {
        std::string text = read_text(file);
        for (const auto& [fixed, marker] : marks)
            for (std::size_t at; (at = text.find(fixed)) != std::string::npos;) text.replace(at, fixed.size(), marker);
        std::ofstream(file, std::ios::binary) << text;
    }
}

struct RunnerFixture {
    TempDir root = searchable(TempDir("runner-e2e"));
    std::filesystem::path bots = root.path() / "bots";
    // Our well-behaved test bots compile once per build tree, not once per fixture: the cache is
    // keyed by content hash and publishes with a rename, so parallel tests share it safely.
    // Fixtures whose bots are hostile, write into their build, or whose test is about compiling
    // use their own (root / "cache").
    std::filesystem::path cache = TEST_BUILD_CACHE;
    std::vector<std::string> extra_env;

    // Copies the named test bots (runner/testing/bots: files or folders) into `bots`.
    void add_test_bots(std::initializer_list<const char*> names) {
        std::filesystem::create_directories(bots);
        const std::filesystem::path src = TEST_BOTS_DIR;
        for (const char* name : names)
            std::filesystem::copy(src / name, bots / name, std::filesystem::copy_options::recursive);
    }

    RunOutcome runner(std::vector<std::string> args, std::chrono::milliseconds timeout = std::chrono::seconds(120),
                      ProcessRegistry* registry = nullptr) {
        SpawnSpec spec;
        spec.registry = registry;
        spec.argv = {RUNNER_BIN};
        spec.argv.insert(spec.argv.end(), args.begin(), args.end());
        spec.cwd = root.path();
        spec.timeout = timeout;
        spec.stdout_cap = std::size_t{64} << 20;
        // Bots' scratch directories go inside the fixture, even when a test kills the runner.
        std::vector<std::string> env = {"PATH=/usr/local/bin:/usr/bin:/bin", "TMPDIR=" + root.path().string()};
        env.insert(env.end(), extra_env.begin(), extra_env.end());
        spec.env = env;
        return run_process(spec);
    }

    // `runner duel A B --json` on a small board (later flags in `extra` override); the game
    // must complete (exit status 0). `outcome`, when given, receives the runner's run.
    nlohmann::json duel(const std::string& a, const std::string& b, std::vector<std::string> extra = {},
                        RunOutcome* outcome = nullptr) {
        std::vector<std::string> args = {"duel", a, b, "--json", "--bots", bots.string(), "--cache", cache.string(),
                                         "--width", "20", "--height", "20", "--generations", "5"};
        args.insert(args.end(), extra.begin(), extra.end());
        RunOutcome r = runner(args);
        INFO("stderr: " << r.err);
        REQUIRE(r.kind == RunOutcome::Kind::exited);
        REQUIRE(r.exit_status == 0);
        if (outcome) *outcome = r;
        return nlohmann::json::parse(r.out);
    }
};

// Whether any process still runs with `marker` in its command line.
inline bool process_with(const std::string& marker) {
    for (const auto& entry : std::filesystem::directory_iterator("/proc"))
        if (read_text(entry.path() / "cmdline").find(marker) != std::string::npos) return true;
    return false;
}

// A JSON table's standings without each bot's time per move, which differs between two plays of
// the same games.
inline nlohmann::json without_times(nlohmann::json standings) {
    for (nlohmann::json& row : standings) row.erase("time");
    return standings;
}

}  // namespace gol::runner::testing
