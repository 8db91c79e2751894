#include "runner/bots/bot_build.hpp"

#include "runner/bots/content_hash.hpp"
#include "runner/game/move.hpp"
#include "runner/sys/copy_tree.hpp"
#include "runner/sandbox/launcher.hpp"
#include "runner/sys/process.hpp"
#include "runner/sandbox/sandbox.hpp"
#include "runner/sys/temp_dir.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

namespace gol::runner {

namespace fs = std::filesystem;

namespace {

constexpr std::size_t kBuildOutputCap = std::size_t{4} << 20;
constexpr std::size_t kTailLines = 20;

// What a build may use: no address-space limit (compilers and the JVM reserve far more than
// they touch), but a bounded number of processes and file sizes.
constexpr ResourceLimits kBuildLimits{
    .address_space = 0, .cpu_seconds = 0, .file_size = std::uint64_t{1} << 30, .open_files = 1024, .processes = 1024};
// In the sandbox a build's whole tree is a control group of its own (control_group.hpp): real
// memory a compiler needs, but not the host's; the process count for the tree, not per uid; its
// CPU time unlimited (a build has its own time limit).
const GroupLimits kBuildGroup{std::uint64_t{4} << 30, 1024 + 4, 0, ""};

// Moves a finished build, `made`, into its place in the cache. Another runner sharing the cache
// may have put the same build there first: then that one is used.
void publish(const fs::path& made, const fs::path& dest) {
    std::error_code ec;
    fs::rename(made, dest, ec);
    if (ec && !fs::exists(dest)) throw BotError("cannot store the build in " + dest.string() + ": " + ec.message());
}

// Where a build's result is put together: beside its final place in the cache, so that a rename
// puts it there whole; what is left of it goes with the object.
TempDir staging_for(const fs::path& dest) {
    fs::create_directories(dest.parent_path());
    return TempDir(".tmp-" + dest.filename().string(), dest.parent_path());
}

// A build step: `argv` runs in `workdir`, inside the sandbox when there is one (seeing `mounts`),
// with a minimal environment. Throws BotError with the tail of its output when it fails, and
// when it wrote on a `bounded` folder and ran out of space, what the folder holds.
// `who`: the sandbox's user for it, which must own its writable mounts.
void run_build(const BotSpec& bot, const std::vector<std::string>& argv, const fs::path& workdir,
               const std::vector<SandboxView::Mount>& mounts, const std::optional<Identity>& who,
               const BuildOptions& options, const std::string& what, bool bounded) {
    CommandSpec spec;
    // Build output goes to stderr and stdout alike; one stream keeps their order for the tail.
    spec.argv = {"/bin/sh", "-c", "exec \"$@\" 2>&1", "build"};
    spec.argv.insert(spec.argv.end(), argv.begin(), argv.end());
    std::optional<TempDir> home;
    if (!options.sandbox) home.emplace("gol-build-home");
    const SandboxView view{mounts, workdir,
                           {std::string("PATH=") + bot_path, "HOME=" + (home ? home->path().string() : "/tmp"),
                            "LANG=C.UTF-8"},
                           {}};
    // Started as a bot's moves are, so that what the build starts ends with it: a daemon holding
    // its output cannot stall the run.
    const std::unique_ptr<Launcher> launcher = Launcher::make(options.sandbox, view, who, nullptr, kBuildGroup);
    spec.env = view.environment;
    spec.cwd = workdir;
    spec.timeout = options.timeout;
    spec.stdout_cap = kBuildOutputCap;
    spec.limits = kBuildLimits;
    const RunOutcome r = *launcher->run(spec);
    if (r.kind == RunOutcome::Kind::exited && r.exit_status == 0) return;
    std::string msg = bot.name + ": " + what + " failed (" + describe(r) + ")";
    // Each line cut at 200 columns (game/move.hpp): one endless line makes no message of megabytes.
    const std::vector<std::string> tail = last_lines(r.out, kTailLines);
    if (!tail.empty()) msg += ":";
    for (const std::string& line : tail) msg += "\n" + line;
    if (bounded && r.out.find(std::strerror(ENOSPC)) != std::string::npos)
        msg += "\n(no space left: in the sandbox a build's folder holds at most " +
               std::to_string(Sandbox::build_bytes >> 20) + " MiB and " + std::to_string(Sandbox::build_files) +
               " files, folders and links, and its /tmp " + std::to_string(Sandbox::tmp_bytes >> 20) + " MiB and " +
               std::to_string(Sandbox::tmp_files) + "; docs/sandbox.md)";
    throw BotError(msg);
}

// What a build leaves (`work`: the bot's files and what it added, or a compiler's output) is
// copied into the cache as `made` within the limits of any copy (copy_tree.hpp): over them the
// build fails naming the limit, and nothing is cached. A sparse file stays sparse and counts at
// its full size.
void keep_output(const BotSpec& bot, const std::string& what, const fs::path& work, const fs::path& made) {
    try {
        copy_tree(work, made);
    } catch (const CopyError& e) {
        throw BotError(bot.name + ": " + what + " left more than the build cache keeps: " + e.what() +
                       "; nothing was cached");
    }
}

// The content hash of a bot's folder or file. What the hash refuses (a folder over a bot's
// limits, a link that leads out, a file that changed while it was read) is the bot's: a
// BotError, which excludes it, not a failure of the runner.
std::string bot_hash(const BotSpec& bot, const fs::path& path) {
    try {
        return fs::is_directory(fs::symlink_status(path)) ? hash_directory(path) : hash_file(path);
    } catch (const std::runtime_error& e) {
        throw BotError(bot.name + ": " + e.what());
    }
}

// A manifest's build runs on a copy of the bot's folder, never on the folder itself: what it
// writes (or touches) cannot change the bot's source or its hash, and the bot plays from the
// built copy, kept in the cache under the source's hash. Inside the sandbox the copy is built
// where it will stay, so paths a build writes into its files hold.
PreparedBot prepare_manifest_bot(const BotSpec& bot, const BuildOptions& options) {
    const std::string hash = bot_hash(bot, bot.dir);
    if (!bot.build) return {bot, bot.run, hash, bot.dir, {bot.dir}};
    const fs::path dest = fs::absolute(options.cache_dir) / "builds" / hash;
    if (!fs::exists(dest)) {
        const TempDir staging = staging_for(dest);
        const fs::path made = staging.path() / "bot";
        const std::vector<std::string> argv = {"/bin/sh", "-c", *bot.build};
        const std::string what = "build \"" + *bot.build + "\"";
        if (options.sandbox) {
            const std::optional<Identity> who = options.sandbox->new_identity();
            const BoundedFolder work = options.sandbox->build_folder("build", who);
            copy_tree(bot.dir, work.path() / "bot", {who});
            run_build(bot, argv, dest, {{work.path() / "bot", dest, true}}, who, options, what, work.bounded());
            keep_output(bot, what, work.path() / "bot", made);
        } else {
            const TempDir work("build", staging.path());
            copy_tree(bot.dir, work.path() / "bot");
            run_build(bot, argv, work.path() / "bot", {}, std::nullopt, options, what, false);
            keep_output(bot, what, work.path() / "bot", made);
        }
        publish(made, dest);
    }
    PreparedBot prepared{bot, bot.run, hash, dest, {dest}};
    // A program of the bot's own folder runs from the built copy.
    if (const fs::path rel = fs::path(bot.run[0]).lexically_relative(bot.dir); !rel.empty() && *rel.begin() != "..")
        prepared.command[0] = (dest / rel).string();
    return prepared;
}

// Compiled single-file bots live in the cache under their content hash.
PreparedBot prepare_compiled_bot(const BotSpec& bot, const BuildOptions& options) {
    const fs::path src = fs::absolute(bot.path).lexically_normal();
    const std::string hash = bot_hash(bot, src);
    // Absolute: the bot runs in its own folder, where a relative --cache would point elsewhere.
    const fs::path dest = fs::absolute(options.cache_dir) / "bin" / hash;
    const std::string stem = src.stem().string();
    PreparedBot prepared{bot, {}, hash, bot.dir, {src, dest}};
    // The JVM's own options depend on the memory limit, and are added when the bot plays.
    if (bot.kind == SourceKind::java) prepared.command = {"java", "-cp", dest.string(), stem};
    else prepared.command = {(dest / "bot").string()};
    if (fs::exists(dest)) return prepared;

    const TempDir staging = staging_for(dest);
    const fs::path made = staging.path() / "bin";
    // The compiler writes into `out`, which it sees at `dest`, its final place.
    const std::string what = "compiling " + src.filename().string();
    auto compile = [&](const fs::path& out, const std::vector<SandboxView::Mount>& mounts,
                       const std::optional<Identity>& who, bool bounded) {
        std::vector<std::string> argv;
        if (bot.kind == SourceKind::c) argv = {"gcc", "-O2", "-o", (out / "bot").string(), src.string(), "-lm"};
        else if (bot.kind == SourceKind::cpp) argv = {"g++", "-O2", "-o", (out / "bot").string(), src.string()};
        else argv = {"javac", "-d", out.string(), src.string()};
        run_build(bot, argv, bot.dir, mounts, who, options, what, bounded);
    };
    if (options.sandbox) {
        const std::string source = "source " + src.string() + " " + hash;
        const std::optional<Identity> who = options.sandbox->new_identity(source);
        const BoundedFolder work = options.sandbox->build_folder("compile", who);
        std::vector<SandboxView::Mount> mounts = options.sandbox->stage(source, {src});
        mounts.push_back({work.path(), dest, true});
        compile(dest, mounts, who, work.bounded());
        keep_output(bot, what, work.path(), made);
    } else {
        const TempDir work("compile", staging.path());
        compile(work.path(), {}, std::nullopt, false);
        keep_output(bot, what, work.path(), made);
    }
    publish(made, dest);
    return prepared;
}

// Programs named without a slash are looked up in bot_path once, here, rather than by every
// spawn; a missing interpreter is then a clear error before any game starts.
void resolve_program(PreparedBot& bot, const Interpreters& interpreters) {
    std::string& program = bot.command.at(0);
    if (program.find('/') != std::string::npos) {
        if (::access(program.c_str(), X_OK) != 0)
            throw BotError(bot.spec.name + ": " + program + " is not an executable file");
        return;
    }
    const std::string path = bots_path(interpreters);
    if (auto found = find_in_path(program, path)) {
        program = *found;
        return;
    }
    throw BotError(bot.spec.name + ": " + program + " is not installed (looked in " + path +
                   (interpreters.empty() ? "; an interpreter elsewhere is made available with --interpreter DIR)" : ")"));
}

PreparedBot prepare_any(const BotSpec& bot, const BuildOptions& options) {
    const fs::path file = fs::absolute(bot.path).lexically_normal();
    auto interpreted = [&](const char* interpreter) {
        return PreparedBot{bot, {interpreter, file.string()}, bot_hash(bot, file), bot.dir, {file}};
    };
    switch (bot.kind) {
        case SourceKind::manifest: return prepare_manifest_bot(bot, options);
        case SourceKind::python: return interpreted("python3");
        case SourceKind::ruby: return interpreted("ruby");
        case SourceKind::node: return interpreted("node");
        case SourceKind::shell: return interpreted("sh");
        case SourceKind::perl: return interpreted("perl");
        case SourceKind::executable: return {bot, {file.string()}, bot_hash(bot, file), bot.dir, {file}};
        case SourceKind::c:
        case SourceKind::cpp:
        case SourceKind::java: return prepare_compiled_bot(bot, options);
    }
    throw BotError(bot.name + ": unknown bot kind");
}

}  // namespace

fs::path default_cache_dir() {
    if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) return fs::path(xdg) / "gol-runner";
    if (const char* home = std::getenv("HOME"); home && *home) return fs::path(home) / ".cache" / "gol-runner";
    return fs::temp_directory_path() / "gol-runner-cache";
}

std::string staging_key(const PreparedBot& bot) { return bot.spec.name + " " + bot.hash; }

std::string bots_path(const Interpreters& interpreters) {
    std::string path = bot_path;
    for (const fs::path& dir : interpreters) path += ":" + (dir / "bin").string();
    return path;
}

PreparedBot prepare_bot(const BotSpec& bot, const BuildOptions& options) {
    PreparedBot prepared = prepare_any(bot, options);
    resolve_program(prepared, options.interpreters);
    // Copied for the sandbox now, once per run, rather than when its first game starts: a copy
    // that is refused excludes this bot, and never stops a league part-way.
    if (options.sandbox) try {
            options.sandbox->stage(staging_key(prepared), prepared.files);
        } catch (const CopyError& e) {
            throw BotError(bot.name + ": its files cannot be copied for the sandbox: " + e.what());
        }
    return prepared;
}

}  // namespace gol::runner
