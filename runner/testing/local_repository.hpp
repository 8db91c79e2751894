// A contestant's git repository made by a test, no network: a bare repository (what the URL
// names) and a work tree that commits to it and pushes. Its git reads no configuration of the
// host or the user.
#pragma once

#include "runner/sys/process.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gol::runner::testing {

class LocalRepository {
public:
    // Made in `dir` (a folder of the test's own): dir/NAME.git and dir/NAME.work.
    LocalRepository(const std::filesystem::path& dir, const std::string& name)
        : bare_(dir / (name + ".git")), work_(dir / (name + ".work")) {
        git({"init", "--quiet", "--bare", bare_.string()});
        git({"init", "--quiet", work_.string()});
    }

    std::string url() const { return "file://" + bare_.string(); }
    const std::filesystem::path& bare() const { return bare_; }

    // Writes `files` (name: contents) in the work tree, commits every change and pushes it to
    // `branch`; returns the commit's id.
    std::string commit(const std::map<std::string, std::string>& files, const std::string& branch = "main") {
        for (const auto& [name, contents] : files) {
            std::filesystem::create_directories((work_ / name).parent_path());
            std::ofstream(work_ / name, std::ios::binary) << contents;
        }
        git({"-C", work_.string(), "add", "--all"});
        git({"-C", work_.string(), "commit", "--quiet", "--allow-empty", "-m", "a commit"});
        git({"-C", work_.string(), "push", "--quiet", "--force", url(), "HEAD:refs/heads/" + branch});
        std::string id = git({"-C", work_.string(), "rev-parse", "HEAD"});
        return id.substr(0, id.find('\n'));
    }

    // git with the test's own identity, `input` on its stdin; REQUIREs that it succeeds, and
    // returns its output.
    std::string git(const std::vector<std::string>& args, std::optional<std::string> input = std::nullopt) const {
        SpawnSpec spec;
        spec.stdin_data = std::move(input);
        spec.argv = {"git"};
        spec.argv.insert(spec.argv.end(), args.begin(), args.end());
        spec.env = std::vector<std::string>{"PATH=/usr/local/bin:/usr/bin:/bin", "GIT_CONFIG_NOSYSTEM=1",
                                            "GIT_CONFIG_GLOBAL=/dev/null", "HOME=" + work_.parent_path().string(),
                                            "GIT_AUTHOR_NAME=test", "GIT_AUTHOR_EMAIL=test@example.org",
                                            "GIT_COMMITTER_NAME=test", "GIT_COMMITTER_EMAIL=test@example.org"};
        spec.timeout = std::chrono::seconds(60);
        const RunOutcome r = run_process(spec);
        INFO("git " << args.back() << ": " << r.err << r.spawn_error);
        REQUIRE(r.kind == RunOutcome::Kind::exited);
        REQUIRE(r.exit_status == 0);
        return r.out;
    }

private:
    std::filesystem::path bare_, work_;
};

}  // namespace gol::runner::testing
