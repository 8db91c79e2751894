#include "runner/bot_build.hpp"
#include "runner/json_text.hpp"

#include "runner/atomic_file.hpp"
#include "runner/content_hash.hpp"
#include "runner/process.hpp"

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <unistd.h>

namespace gol::runner {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr std::size_t kBuildOutputCap = std::size_t{4} << 20;
constexpr int kTailLines = 20;

std::string tail_lines(const std::string& text, int n) {
    std::size_t pos = text.size();
    while (pos > 0 && (text[pos - 1] == '\n')) --pos;
    std::size_t end = pos;
    for (int seen = 0; pos > 0; --pos)
        if (text[pos - 1] == '\n' && ++seen == n) break;
    return text.substr(pos, end - pos);
}

// Runs one build step; throws BotError with the tail of its output when it fails.
void run_build(const BotSpec& bot, std::vector<std::string> argv, const fs::path& cwd, const BuildOptions& options,
               const std::string& what) {
    SpawnSpec spec;
    // Build output goes to stderr and stdout alike; one stream keeps their order for the tail.
    spec.argv = {"/bin/sh", "-c", "exec \"$@\" 2>&1", "build"};
    spec.argv.insert(spec.argv.end(), argv.begin(), argv.end());
    spec.cwd = cwd;
    spec.timeout = options.timeout;
    spec.stdout_cap = kBuildOutputCap;
    RunOutcome r = run_process(spec);
    if (r.kind == RunOutcome::Kind::exited && r.exit_status == 0) return;
    std::string msg = bot.name + ": " + what + " failed (" + describe(r) + ")";
    std::string tail = tail_lines(r.out, kTailLines);
    if (!tail.empty()) msg += ":\n" + tail;
    throw BotError(msg);
}

using Snapshot = std::map<std::string, std::pair<std::uintmax_t, fs::file_time_type>>;

Snapshot snapshot(const fs::path& dir) {
    Snapshot s;
    for (const auto& e : fs::recursive_directory_iterator(dir))
        if (e.is_regular_file())
            s[fs::relative(e.path(), dir).generic_string()] = {e.file_size(), e.last_write_time()};
    return s;
}

// A manifest build writes into the bot's own directory. Files it creates or changes are
// remembered per directory and left out of the content hash, so building does not make the
// bot look changed (which would replay its league games).
PreparedBot prepare_manifest_bot(const BotSpec& bot, const BuildOptions& options) {
    PreparedBot prepared{bot, bot.run, {}, {}};
    if (!bot.build) {
        prepared.hash = hash_directory(bot.dir);
        return prepared;
    }
    const fs::path marker = options.cache_dir / "builds" / (Fnv64().add(bot.dir.string()).hex() + ".json");
    std::set<std::string> outputs;
    std::string built_hash;
    if (std::ifstream in(marker); in) {
        try {
            json m = json::parse(in);
            built_hash = m.at("source_hash").get<std::string>();
            for (const json& o : m.at("outputs")) outputs.insert(o.get<std::string>());
        } catch (const json::exception&) {
            built_hash.clear();  // A damaged marker only costs a rebuild.
        }
    }
    std::string hash = hash_directory(bot.dir, outputs);
    bool outputs_present = std::all_of(outputs.begin(), outputs.end(),
                                       [&](const std::string& o) { return fs::exists(bot.dir / o); });
    if (hash == built_hash && outputs_present) {
        prepared.hash = hash;
        return prepared;
    }
    Snapshot before = snapshot(bot.dir);
    run_build(bot, {"/bin/sh", "-c", *bot.build}, bot.dir, options, "build \"" + *bot.build + "\"");
    for (const auto& [rel, stamp] : snapshot(bot.dir)) {
        auto it = before.find(rel);
        if (it == before.end() || it->second != stamp) outputs.insert(rel);
    }
    std::erase_if(outputs, [&](const std::string& o) { return !fs::exists(bot.dir / o); });
    prepared.hash = hash_directory(bot.dir, outputs);
    json m = {{"dir", bot.dir.string()}, {"source_hash", prepared.hash}, {"outputs", outputs}};
    write_file_atomically(marker, json_text(m, 2) + "\n");
    return prepared;
}

// Compiled single-file bots live in the cache under their content hash; a finished build is
// renamed into place, so a crash mid-build leaves nothing that looks complete.
PreparedBot prepare_compiled_bot(const BotSpec& bot, const std::string& hash, const BuildOptions& options) {
    const fs::path src = fs::absolute(bot.path);
    // Absolute: the bot runs in its own folder, where a relative --cache would point elsewhere.
    const fs::path dest = fs::absolute(options.cache_dir) / "bin" / (bot.name + "-" + hash);
    const std::string stem = src.stem().string();
    PreparedBot prepared{bot, {}, hash, dest};
    // The JVM's default reservations (a quarter of the machine's memory for the heap, 1 GiB of
    // class space) fail under the default 1 GiB address-space limit of a move.
    if (bot.kind == SourceKind::java)
        prepared.command = {"java", "-XX:+UseSerialGC", "-Xmx256m", "-XX:CompressedClassSpaceSize=64m",
                            "-XX:ReservedCodeCacheSize=64m", "-cp", dest.string(), stem};
    else prepared.command = {(dest / "bot").string()};
    if (fs::exists(dest)) return prepared;

    fs::create_directories(dest.parent_path());
    const fs::path tmp = dest.parent_path() / (".tmp-" + dest.filename().string() + "-" + std::to_string(::getpid()));
    fs::remove_all(tmp);
    fs::create_directories(tmp);
    try {
        std::vector<std::string> argv;
        if (bot.kind == SourceKind::c) argv = {"gcc", "-O2", "-o", (tmp / "bot").string(), src.string(), "-lm"};
        else if (bot.kind == SourceKind::cpp) argv = {"g++", "-O2", "-o", (tmp / "bot").string(), src.string()};
        else argv = {"javac", "-d", tmp.string(), src.string()};
        run_build(bot, argv, bot.dir, options, "compiling " + src.filename().string());
        fs::rename(tmp, dest);
    } catch (...) {
        fs::remove_all(tmp);
        throw;
    }
    return prepared;
}

// Programs named without a slash are looked up in bot_path once, here, rather than by every
// spawn; a missing interpreter is then a clear error before any game starts.
void resolve_program(PreparedBot& bot) {
    std::string& program = bot.command.at(0);
    if (program.find('/') != std::string::npos) {
        if (::access(program.c_str(), X_OK) != 0)
            throw BotError(bot.spec.name + ": " + program + " is not an executable file");
        return;
    }
    if (auto found = find_in_path(program, bot_path)) {
        program = *found;
        return;
    }
    throw BotError(bot.spec.name + ": " + program + " is not installed (looked in " + bot_path + ")");
}

PreparedBot prepare_any(const BotSpec& bot, const BuildOptions& options) {
    const std::string file = fs::absolute(bot.path).string();
    switch (bot.kind) {
        case SourceKind::manifest: return prepare_manifest_bot(bot, options);
        case SourceKind::python: return {bot, {"python3", file}, hash_file(bot.path), {}};
        case SourceKind::ruby: return {bot, {"ruby", file}, hash_file(bot.path), {}};
        case SourceKind::node: return {bot, {"node", file}, hash_file(bot.path), {}};
        case SourceKind::shell: return {bot, {"sh", file}, hash_file(bot.path), {}};
        case SourceKind::perl: return {bot, {"perl", file}, hash_file(bot.path), {}};
        case SourceKind::executable: return {bot, {file}, hash_file(bot.path), {}};
        case SourceKind::c:
        case SourceKind::cpp:
        case SourceKind::java: return prepare_compiled_bot(bot, hash_file(bot.path), options);
    }
    throw BotError(bot.name + ": unknown bot kind");
}

}  // namespace

fs::path default_cache_dir() {
    if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) return fs::path(xdg) / "gol-runner";
    if (const char* home = std::getenv("HOME"); home && *home) return fs::path(home) / ".cache" / "gol-runner";
    return fs::temp_directory_path() / "gol-runner-cache";
}

PreparedBot prepare_bot(const BotSpec& bot, const BuildOptions& options) {
    PreparedBot prepared = prepare_any(bot, options);
    resolve_program(prepared);
    return prepared;
}

}  // namespace gol::runner
