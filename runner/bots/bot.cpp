#include "runner/bots/bot.hpp"
#include "runner/game/json_fields.hpp"
#include "runner/sys/small_file.hpp"
#include "runner/text/terminal_text.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <unistd.h>

namespace gol::runner {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

struct ExtensionRule {
    std::string_view ext;
    SourceKind kind;
};

constexpr std::array<ExtensionRule, 9> kExtensions = {{
    {".py", SourceKind::python},
    {".rb", SourceKind::ruby},
    {".js", SourceKind::node},
    {".sh", SourceKind::shell},
    {".pl", SourceKind::perl},
    {".c", SourceKind::c},
    {".cpp", SourceKind::cpp},
    {".cc", SourceKind::cpp},
    {".java", SourceKind::java},
}};

constexpr std::string_view kExtensionList = ".py .rb .js .sh .pl .c .cpp .cc .java, or an executable file";

// A path in a message, on one line whatever bytes its file names hold.
std::string quoted(const fs::path& p) { return terminal_line(p.string()); }

// A bot's name is printed on terminals and in log lines, where a control character would
// move the cursor, clear the screen or forge a line: such a name is refused. `fix` says how to
// choose another.
void check_name(const std::string& name, const fs::path& where, std::string_view fix) {
    if (!is_printable_text(name))
        throw BotError(quoted(where) + ": the bot's name \"" + terminal_line(name) +
                       "\" holds control characters or bytes that are not UTF-8; " + std::string(fix));
}

// A bot entry that is a link, resolved once, here: the bot is what it points to, hashed and
// copied into the sandbox as such (a link copied as a link would show the host's files, or
// nothing). Anything else as it is.
fs::path resolved(const fs::path& abs) {
    if (!fs::is_symlink(abs)) return abs;
    std::error_code ec;
    fs::path target = fs::canonical(abs, ec);
    if (ec) throw BotError(quoted(abs) + ": a link to nothing (" + ec.message() + ")");
    return target;
}

// A folder, which needs its bot.json, or a single file.
BotSpec bot_at(const fs::path& p) {
    if (!fs::is_directory(p)) return single_file_bot(p);
    if (!fs::exists(p / "bot.json"))
        throw BotError(quoted(p) + ": a bot directory needs a bot.json manifest with a \"run\" command");
    return read_manifest(p);
}

}  // namespace

BotError::BotError(const std::string& message) : std::runtime_error(terminal_lines(message)) {}

std::string_view name(Protocol protocol) {
    static constexpr std::array<std::string_view, 4> kNames = {"argv", "stdin", "persistent", "tlv"};  // by value
    return kNames[static_cast<std::size_t>(protocol)];
}

BotSpec read_manifest(const fs::path& dir) {
    const fs::path file = dir / "bot.json";
    try {
        return parse_manifest(read_small_file(file, max_manifest_bytes), dir);
    } catch (const SmallFileError& e) {
        throw BotError(quoted(file) + " " + e.what() + " (a manifest is a plain JSON file of at most " +
                       std::to_string(max_manifest_bytes >> 10) + " KiB)");
    }
}

BotSpec parse_manifest(std::string_view text, const fs::path& dir) try {
    const fs::path file = dir / "bot.json";
    const json j = parse_json(text);
    if (!j.is_object()) throw RecordError("must be a JSON object with a \"run\" field");
    const JsonObject o(j, {"run", "build", "name", "protocol", "warm"});

    BotSpec bot;
    bot.path = dir;
    fs::path entry = fs::absolute(dir).lexically_normal();
    // "." and "bots/x/" end in a separator once normal: the folder's name is the part before it.
    if (!entry.has_filename()) entry = entry.parent_path();
    bot.dir = resolved(entry);
    bot.kind = SourceKind::manifest;
    bot.name = entry.filename().string();

    const json* run = o.find("run");
    if (!run) throw RecordError("missing \"run\" (an array of strings: the command)");
    if (!run->is_array() || run->empty() ||
        !std::all_of(run->begin(), run->end(), [](const json& a) { return a.is_string(); }) ||
        (*run)[0].get<std::string>().empty())
        o.wrong("run", "a non-empty array of strings, e.g. [\"python3\", \"bot.py\"]");
    for (const json& a : *run) bot.run.push_back(a.get<std::string>());
    // The bot's program: a relative path, or a name that is a file of the bot directory, is that
    // file; any other name is looked up in PATH when the bot is prepared.
    if (const fs::path p(bot.run[0]);
        !p.is_absolute() && (bot.run[0].find('/') != std::string::npos || fs::exists(bot.dir / p)))
        bot.run[0] = fs::absolute(bot.dir / p).lexically_normal();

    bot.build = o.string("build", " (a shell command)");
    if (const json* n = o.find("name")) {
        if (!n->is_string() || n->get<std::string>().empty() || n->get<std::string>().size() > 64)
            o.wrong("name", "a non-empty string of at most 64 characters");
        bot.name = n->get<std::string>();
        check_name(bot.name, file, "choose a printable \"name\"");
    } else {
        check_name(bot.name, dir, "rename the folder, or set a printable \"name\" in its bot.json");
    }
    const std::string protocol = o.choice("protocol", {"argv", "stdin", "persistent", "tlv"}).value_or("argv");
    for (Protocol p : {Protocol::argv, Protocol::stdin, Protocol::persistent, Protocol::tlv})
        if (name(p) == protocol) bot.protocol = p;
    bot.warm = o.boolean("warm", " (false: a new interpreter per move)").value_or(true);
    return bot;
} catch (const RecordError& e) {
    throw BotError(quoted(dir / "bot.json") + ": " + e.what());
}

BotSpec single_file_bot(const fs::path& file) {
    BotSpec bot;
    fs::path abs = fs::absolute(file).lexically_normal();
    bot.name = abs.stem().string();
    abs = resolved(abs);
    bot.path = abs;
    bot.dir = abs.parent_path();
    check_name(bot.name, file, "rename the file");
    const std::string ext = abs.extension().string();
    for (const ExtensionRule& rule : kExtensions)
        if (rule.ext == ext) {
            bot.kind = rule.kind;
            return bot;
        }
    if (fs::is_regular_file(abs) && ::access(abs.c_str(), X_OK) == 0) {
        bot.kind = SourceKind::executable;
        return bot;
    }
    throw BotError(quoted(file) + ": cannot tell how to run this file; bots are " + std::string(kExtensionList) +
                   " (or a directory with a bot.json)");
}

BotSpec find_bot(const std::string& name_or_path, const fs::path& bots_dir) {
    fs::path p(name_or_path);
    std::error_code ec;
    if (fs::is_directory(p, ec) || fs::is_regular_file(p, ec)) return bot_at(p);
    if (fs::exists(p, ec)) throw BotError(quoted(p) + ": not a file or directory");
    const bool bare = name_or_path.find('/') == std::string::npos;
    // A bare name is a folder or a file of the bots folder (blocky.py); a name or a path without
    // its extension is a file of its folder (blocky, bots/blocky).
    if (bare && fs::exists(bots_dir / p, ec)) return find_bot((bots_dir / p).string(), bots_dir);
    if (const fs::path dir = bare ? bots_dir : p.parent_path(); fs::is_directory(dir, ec))
        for (const auto& entry : fs::directory_iterator(dir))
            if (entry.is_regular_file() && entry.path().stem() == p.filename()) return single_file_bot(entry.path());
    throw BotError("no bot named \"" + name_or_path + "\": not a path, and not a bot in " + quoted(bots_dir));
}

std::vector<Discovered> discover_bots(const fs::path& dir) {
    std::vector<Discovered> found;
    for (const auto& entry : fs::directory_iterator(dir)) {
        const std::string fname = entry.path().filename().string();
        const std::string ext = entry.path().extension().string();
        if (fname.starts_with(".") || fname.starts_with("README") || fname == "__pycache__" || ext == ".md" ||
            ext == ".txt")
            continue;
        Discovered& d = found.emplace_back(Discovered{entry.path(), std::nullopt, {}});
        try {
            d.bot = bot_at(d.path);
        } catch (const BotError& e) {
            d.error = e.what();
        }
    }
    std::sort(found.begin(), found.end(), [](const Discovered& a, const Discovered& b) { return a.path < b.path; });
    return found;
}

}  // namespace gol::runner
