// Shared by the end-to-end tests: a private folder for bots, build cache and temporary files,
// and the real runner binary run in it.
#pragma once

#include "runner/sys/process.hpp"
#include "runner/sys/temp_dir.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace gol::runner::testing {

// A whole file's bytes; empty when it cannot be read.
inline std::string read_text(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), {});
}

// A root runner's sandboxed bots are another user, who must reach the runner's work area in
// TMPDIR, which the fixture sets to its own folder.
inline TempDir searchable(TempDir dir) {
    std::filesystem::permissions(dir.path(), std::filesystem::perms::others_exec | std::filesystem::perms::group_exec,
                                 std::filesystem::perm_options::add);
    return dir;
}

struct RunnerFixture {
    TempDir root = searchable(TempDir("runner-e2e"));
    std::filesystem::path bots = root.path() / "bots";
    std::filesystem::path cache = root.path() / "cache";
    std::vector<std::string> extra_env;

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
    for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
        std::ifstream in(entry.path() / "cmdline");
        std::string cmd((std::istreambuf_iterator<char>(in)), {});
        if (cmd.find(marker) != std::string::npos) return true;
    }
    return false;
}

}  // namespace gol::runner::testing
