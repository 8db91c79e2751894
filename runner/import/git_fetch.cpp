#include "runner/import/git_fetch.hpp"

#include "runner/bots/repository_bot.hpp"
#include "runner/sys/copy_tree.hpp"
#include "runner/sys/process.hpp"
#include "runner/sys/temp_dir.hpp"
#include "runner/text/terminal_text.hpp"
#include "runner/text/text_width.hpp"
#include "runner/text/time_text.hpp"

#include <algorithm>
#include <array>
#include <csignal>
#include <cstdlib>
#include <stdexcept>
#include <vector>

// The runner's environment, which git's is made from.
extern char** environ;

namespace gol::runner {

namespace fs = std::filesystem;

namespace {

// How long a failure's reason may be in the state, the table and the page.
constexpr int kReasonColumns = 300;

struct GitFailure : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// The runner's environment without git's own variables (GIT_DIR and the like would point git
// elsewhere), with none of the host's or the user's configuration, no prompt for a password,
// and only the allowed transports (which git enforces for every URL it is handed, redirects
// and submodules included).
std::vector<std::string> git_environment(bool allow_file) {
    std::vector<std::string> env;
    for (char** e = environ; *e != nullptr; ++e)
        if (!std::string_view(*e).starts_with("GIT_")) env.emplace_back(*e);
    for (const char* fixed : {"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_TERMINAL_PROMPT=0",
                              "GIT_ASKPASS=/bin/false", "GIT_SSH_COMMAND=ssh -o BatchMode=yes", "LC_ALL=C"})
        env.emplace_back(fixed);
    env.emplace_back(allow_file ? "GIT_ALLOW_PROTOCOL=https:git:ssh:file" : "GIT_ALLOW_PROTOCOL=https:git:ssh");
    return env;
}

// `git` with the settings every call gets: no hooks, no links checked out, every object checked
// as it arrives (fsck refuses trees with ".git" or ".." entries), the transports again.
std::vector<std::string> git(const fs::path& git_dir, bool allow_file) {
    std::vector<std::string> argv = {"git", "--git-dir=" + git_dir.string()};
    for (const char* setting : {"core.hooksPath=/dev/null", "core.symlinks=false", "core.fsmonitor=false",
                                "core.protectNTFS=true", "core.protectHFS=true", "transfer.fsckObjects=true",
                                "submodule.recurse=false", "protocol.allow=never", "protocol.https.allow=always",
                                "protocol.git.allow=always", "protocol.ssh.allow=always"}) {
        argv.emplace_back("-c");
        argv.emplace_back(setting);
    }
    if (allow_file) argv.insert(argv.end(), {"-c", "protocol.file.allow=always"});
    return argv;
}

// Runs git; its stdout, or GitFailure with the last line of what it said.
std::string run_git(std::vector<std::string> argv, const std::vector<std::string>& tail, const GitOptions& o,
                    std::chrono::seconds timeout) {
    argv.insert(argv.end(), tail.begin(), tail.end());
    SpawnSpec spec;
    spec.argv = std::move(argv);
    spec.env = git_environment(o.allow_file);
    spec.timeout = timeout;
    spec.limits.file_size = o.max_fetch_bytes;
    spec.stdout_cap = std::size_t{8} << 20;
    const RunOutcome r = run_process(spec);
    if (r.kind == RunOutcome::Kind::exited && r.exit_status == 0) return r.out;
    if (r.kind == RunOutcome::Kind::spawn_failed)
        throw GitFailure("cannot run git (" + r.spawn_error + "; scripts/setup installs it)");
    if (r.kind == RunOutcome::Kind::timed_out) throw GitFailure("git took over " + format_duration(timeout) + "; stopped");
    // The size limit (RLIMIT_FSIZE) kills whichever of git's processes writes too much, and git
    // names the signal.
    if ((r.kind == RunOutcome::Kind::signaled && r.signal == SIGXFSZ) ||
        r.err.find("died of signal " + std::to_string(SIGXFSZ)) != std::string::npos)
        throw GitFailure("git " + tail.front() + " wrote a file over the " + std::to_string(o.max_fetch_bytes >> 10) +
                         " KiB a fetch may write; stopped");
    // Git says why in its first "fatal:" line; hints and advice follow it.
    std::string why;
    for (std::size_t from = 0, end; from < r.err.size(); from = end + 1) {
        end = std::min(r.err.find('\n', from), r.err.size());
        const std::string line = r.err.substr(from, end - from);
        if (line.starts_with("fatal: ") || line.starts_with("error: ")) {
            why = line.substr(7);
            break;
        }
        if (!line.empty()) why = line;
    }
    if (why.empty()) why = r.kind == RunOutcome::Kind::exited ? "exit status " + std::to_string(r.exit_status) : "it was killed";
    throw GitFailure("git " + tail.front() + " failed: " + why);
}

// The files a commit holds, checked against a bot's limits before any is written.
void check_tree_size(const std::vector<std::string>& git_argv, const GitOptions& o) {
    const std::string listing = run_git(git_argv, {"ls-tree", "-r", "-l", "--full-tree", "-z", "refs/heads/fetched"}, o,
                                        std::chrono::seconds(60));
    std::size_t files = 0;
    std::uint64_t bytes = 0;
    for (std::size_t from = 0, end; from < listing.size(); from = end + 1) {
        end = std::min(listing.find('\0', from), listing.size());
        ++files;
        // "MODE TYPE OBJECT SIZE\tPATH": a submodule's size is "-".
        const std::string entry = listing.substr(from, end - from);
        const std::size_t tab = entry.find('\t');
        const std::size_t space = entry.rfind(' ', tab);
        if (tab != std::string::npos && space != std::string::npos)
            bytes += std::strtoull(entry.c_str() + space + 1, nullptr, 10);
    }
    if (files > max_tree_files)
        throw GitFailure("the commit holds " + std::to_string(files) + " files, over the " +
                         std::to_string(max_tree_files) + " a bot may have");
    if (bytes > max_tree_bytes)
        throw GitFailure("the commit holds " + std::to_string(bytes >> 20) + " MiB, over the " +
                         std::to_string(max_tree_bytes >> 20) + " MiB a bot may have");
}

}  // namespace

std::string_view name(GitStatus status) {
    constexpr std::array<std::string_view, 4> names = {"imported", "updated", "unchanged", "failed"};
    return names[static_cast<std::size_t>(status)];
}

GitFetch fetch_git_bot(const GitSource& source, const fs::path& bots_dir, const GitOptions& o) {
    for (const std::optional<std::string>& why :
         {refused_bot_name(source.name), refused_git_url(source.url, o.allow_file), refused_branch(source.branch)})
        if (why) throw std::invalid_argument(*why);
    std::optional<RepositoryState> state = read_repository_state(bots_dir, source.name);
    const fs::path target = bots_dir / source.name;
    std::error_code ec;
    if (!state && fs::exists(fs::symlink_status(target, ec)))
        return {GitStatus::failed, "",
                terminal_line(target.string()) + " is there and came from no repository: give the bot another name"};
    RepositoryState next = state.value_or(RepositoryState{});
    next.url = source.url;
    next.branch = source.branch;
    try {
        fs::create_directories(bots_dir);
        // Hidden in the bots folder, so that the new folder moves in with one rename.
        const TempDir work("." + source.name + ".git", bots_dir);
        const std::vector<std::string> g = git(work.path() / "repo.git", o.allow_file);
        run_git({"git"}, {"init", "--quiet", "--bare", (work.path() / "repo.git").string()}, o, std::chrono::seconds(60));
        run_git(g,
                {"fetch", "--quiet", "--depth=1", "--no-tags", "--no-recurse-submodules", "--no-write-fetch-head", "--",
                 source.url, "+refs/heads/" + source.branch + ":refs/heads/fetched"},
                o, o.timeout);
        std::string commit = run_git(g, {"rev-parse", "--verify", "refs/heads/fetched^{commit}"}, o, std::chrono::seconds(60));
        commit.erase(commit.find_last_not_of('\n') + 1);
        const bool same = state && state->commit == commit && fs::is_directory(fs::symlink_status(target, ec));
        if (!same) {
            check_tree_size(g, o);
            const fs::path tree = work.path() / "tree";
            fs::create_directory(tree);
            std::vector<std::string> checkout = g;
            checkout.insert(checkout.begin() + 2, {"--work-tree=" + tree.string(), "-c", "core.bare=false"});
            run_git(checkout, {"checkout", "--quiet", "--force", "refs/heads/fetched", "--", "."}, o, std::chrono::seconds(120));
            // 0755 whatever the umask, as the bot folders import writes from answers.
            fs::permissions(tree, fs::perms(0755));
            swap_in_folder(tree, target);
        }
        const GitStatus status = same ? GitStatus::unchanged : state && !state->commit.empty() ? GitStatus::updated
                                                                                                  : GitStatus::imported;
        next.commit = commit;
        if (!same) next.fetched = utc_timestamp(std::chrono::system_clock::now());
        next.error.clear();
        next.failed.clear();
        write_repository_state(bots_dir, source.name, next);
        return {status, commit, ""};
    } catch (const std::exception& e) {
        // The folder keeps the commit it had; the state says why the fetch failed, and when.
        next.error = cut_text(terminal_line(e.what()), kReasonColumns, "...");
        next.failed = utc_timestamp(std::chrono::system_clock::now());
        try {
            write_repository_state(bots_dir, source.name, next);
        } catch (const std::exception& write) {
            next.error += "; and its state could not be written: " + terminal_line(write.what());
        }
        return {GitStatus::failed, next.commit, next.error};
    }
}

}  // namespace gol::runner
