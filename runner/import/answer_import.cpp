#include "runner/import/answer_import.hpp"

#include "runner/import/answer_html.hpp"
#include "runner/text/terminal_text.hpp"
#include "runner/text/text_width.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <climits>
#include <ctime>
#include <map>
#include <set>

namespace gol::runner {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// How a language runs: the 2016 controller's commands/*.sh and the runner's own single-file
// rules (bot.cpp). A compiled bot builds in its folder's copy in the build cache.
struct LanguageRule {
    std::string_view language;
    std::vector<std::string_view> names;  // as headers write it, lower case, spaces and version dropped
    std::string_view source;              // the file's name; a Java bot's is its class's
    std::vector<std::string> run;
    std::string build;
};

const std::vector<LanguageRule>& language_rules() {
    static const std::vector<LanguageRule> rules = {
        {"Python 2", {"python2"}, "bot.py", {"python2", "bot.py"}, ""},
        // Plain "Python" runs as the runner runs a .py file: python3.
        {"Python 3", {"python", "python3", "cpython"}, "bot.py", {"python3", "bot.py"}, ""},
        {"Ruby", {"ruby"}, "bot.rb", {"ruby", "bot.rb"}, ""},
        {"Node.js", {"node.js", "nodejs", "node", "javascript", "js"}, "bot.js", {"node", "bot.js"}, ""},
        // The runner sizes a single-file Java bot's JVM from the memory limit (bot_player.cpp); a
        // manifest's command is fixed, so it carries the sizes for the default 1024 MiB.
        {"Java", {"java"}, "", {"java", "-XX:+UseSerialGC", "-Xmx256m", "-XX:CompressedClassSpaceSize=64m",
                                "-XX:ReservedCodeCacheSize=64m", "-cp", "."}, ""},
        {"C", {"c", "gcc"}, "bot.c", {"./bot"}, "gcc -O2 -o bot bot.c -lm"},
        {"C++", {"c++", "cpp", "g++"}, "bot.cpp", {"./bot"}, "g++ -O2 -o bot bot.cpp"},
        {"Bash", {"bash"}, "bot.sh", {"bash", "bot.sh"}, ""},
        {"sh", {"sh", "posixsh", "dash"}, "bot.sh", {"sh", "bot.sh"}, ""},
        {"Perl", {"perl"}, "bot.pl", {"perl", "bot.pl"}, ""},
        // As 2016 ran it: the board is awk's first operand, which the program reads in BEGIN.
        {"awk", {"awk", "gawk", "mawk"}, "bot.awk", {"awk", "-f", "bot.awk"}, ""},
        {"R", {"r", "rscript"}, "bot.R", {"Rscript", "bot.R"}, ""},
        {"CoffeeScript", {"coffeescript", "coffee"}, "bot.coffee", {"coffee", "bot.coffee"}, ""},
    };
    return rules;
}

std::string lowercase(std::string_view s) {
    std::string out;
    for (const char c : s) out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

// "Python 3.5" -> Python 3, "JavaScript (Node.js)" -> Node.js, "C++11" -> C++; nullopt when the
// runner does not know how to run it.
std::optional<LanguageRule> language_rule(std::string_view written) {
    std::string key = lowercase(written.substr(0, written.find('(')));
    std::erase_if(key, [](char c) { return c == ' ' || c == '\t' || c == '-' || c == '_'; });
    const std::size_t version_at = key.find_last_not_of("0123456789.") + 1;
    // Only Python's major version picks another command.
    if (key.substr(0, version_at) == "python" && key.substr(version_at).starts_with("2")) key = "python2";
    else key.resize(version_at);
    for (const LanguageRule& rule : language_rules())
        if (std::find(rule.names.begin(), rule.names.end(), key) != rule.names.end()) return rule;
    return std::nullopt;
}

bool identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$'; }

// The class `java` runs, which javac wants in a file of its name: the public class, else the
// first class declared.
std::optional<std::string> java_class(std::string_view code) {
    std::optional<std::string> first;
    for (std::size_t at = code.find("class"); at != std::string_view::npos; at = code.find("class", at + 5)) {
        if ((at > 0 && identifier_char(code[at - 1])) || at + 5 >= code.size() || !std::isspace(static_cast<unsigned char>(code[at + 5])))
            continue;
        std::size_t start = code.find_first_not_of(" \t\r\n", at + 5);
        std::size_t end = start;
        while (end < code.size() && identifier_char(code[end])) ++end;
        if (start == std::string_view::npos || end == start || std::isdigit(static_cast<unsigned char>(code[start])))
            continue;
        const std::string name(code.substr(start, end - start));
        const std::size_t line = code.rfind('\n', at) == std::string_view::npos ? 0 : code.rfind('\n', at) + 1;
        if (code.substr(line, at - line).find("public") != std::string_view::npos) return name;
        if (!first) first = name;
    }
    return first;
}

// As 2016 named bots: the letters and digits of the name (ASCII, for a folder's name anywhere).
std::string bot_name(std::string_view written) {
    std::string name;
    for (const char c : written)
        if (std::isalnum(static_cast<unsigned char>(c)) && name.size() < 64) name += c;
    return name;
}

std::string iso_date(std::int64_t seconds) {
    const std::time_t t = static_cast<std::time_t>(seconds);
    std::tm tm{};
    char text[32] = "";
    if (gmtime_r(&t, &tm)) std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return text;
}

// What the answer is, as far as it is known: a field neither the answer nor the source gives is
// left out, not written as 0 or 1970.
std::string answer_record(const Answer& answer, const AnswerBot& bot, const ImportSource& source) {
    json j = {{"site", source.site}, {"answer_id", answer.answer_id}};
    if (const std::optional<std::int64_t> question = answer.question_id ? answer.question_id : source.question)
        j["question_id"] = *question;
    if (!answer.author.empty()) j["author"] = answer.author;
    if (answer.score) j["score"] = *answer.score;
    if (answer.last_activity_date) j["last_activity_date"] = iso_date(*answer.last_activity_date);
    j["header"] = bot.header;
    j["language"] = bot.language;
    // Bytes that are not UTF-8 (a header cut short) are replaced rather than refused.
    return j.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

// The host's bot.local.json, if the folder has one, is the bot's bot.json and stays in the folder.
void keep_local_manifest(const fs::path& folder, AnswerBot& bot, ImportRow& row) {
    try {
        const std::optional<std::string> local = local_manifest(folder);
        if (!local) return;
        for (BotFile& file : bot.files)
            if (file.name == "bot.json") file.contents = *local;
        bot.files.push_back({local_manifest_name, *local});
        row.detail += std::string("; bot.json is the host's ") + local_manifest_name;
    } catch (const std::runtime_error& e) {
        row.detail += "; not used: " + terminal_line(e.what());
    }
}

}  // namespace

std::string known_languages() {
    std::string list;
    for (const LanguageRule& rule : language_rules()) list += (list.empty() ? "" : ", ") + std::string(rule.language);
    return list;
}

std::variant<AnswerBot, NotABot> answer_bot(const Answer& answer) {
    const AnswerParts parts = read_answer_html(answer.body);
    if (!parts.header) return NotABot{"no header: a code block comes before any text"};
    const std::string& header = *parts.header;
    const std::size_t comma = header.find(',');
    if (comma == std::string::npos)
        return NotABot{"no header: its first line, \"" + terminal_line(header.substr(0, 60)) +
                       "\", is not \"Language, Bot name\""};
    if (!parts.code || parts.code->find_first_not_of(" \t\r\n") == std::string::npos)
        return NotABot{"no code block"};
    const std::string_view fields = header;
    std::string language(trimmed(fields.substr(0, comma), " \t"));
    std::string written_name(trimmed(fields.substr(comma + 1, header.find(',', comma + 1) - comma - 1), " \t"));
    std::optional<LanguageRule> rule = language_rule(language);
    // "RandomBot, Python 3": the other way round.
    if (!rule && (rule = language_rule(written_name))) std::swap(language, written_name);
    if (!rule)
        return NotABot{"unknown language \"" + terminal_line(language.substr(0, 40)) + "\" (known: " + known_languages() +
                       ")"};
    AnswerBot bot;
    bot.language = std::string(rule->language);
    bot.header = header;
    bot.name = bot_name(written_name);
    if (bot.name.empty()) bot.name = "answer" + std::to_string(answer.answer_id);
    std::string source(rule->source);
    if (rule->language == "Java") {
        const std::optional<std::string> cls = java_class(*parts.code);
        if (!cls) return NotABot{"Java code without a class"};
        // javac wants the file named for the class, and a file's name is at most NAME_MAX bytes.
        if (cls->size() + 5 > NAME_MAX)
            return NotABot{"its Java class's name, " + std::to_string(cls->size()) +
                           " letters, is too long for the file javac wants (at most " + std::to_string(NAME_MAX - 5) + ")"};
        source = *cls + ".java";
        rule->run.push_back(*cls);
        rule->build = "javac " + source;
    }
    json manifest = {{"run", rule->run}};
    if (!rule->build.empty()) manifest["build"] = rule->build;
    bot.files = {{source, *parts.code}, {"bot.json", manifest.dump() + "\n"}};
    return bot;
}

std::string_view name(ImportStatus status) {
    constexpr std::array<std::string_view, 6> names = {"imported", "updated", "unchanged", "skipped", "deleted", "pruned"};
    return names[static_cast<std::size_t>(status)];
}

ImportPlan plan_import(std::vector<Answer> answers, const fs::path& bots_dir, const ImportSource& source, bool prune) {
    // Oldest first, each once (pages can overlap when answers arrive while they are read): an
    // older answer keeps a contested name.
    std::sort(answers.begin(), answers.end(), [](const Answer& a, const Answer& b) { return a.answer_id < b.answer_id; });
    answers.erase(std::unique(answers.begin(), answers.end(),
                              [](const Answer& a, const Answer& b) { return a.answer_id == b.answer_id; }),
                  answers.end());

    std::map<std::int64_t, std::string> folder_of;  // answer id -> its folder
    std::vector<ImportedFolder> folders = imported_folders(bots_dir);
    for (const ImportedFolder& f : folders) folder_of.emplace(f.answer_id, f.name);
    std::map<std::string, std::string> taken;  // lower-case name -> who holds it
    for (const std::string& n : bot_names_in(bots_dir)) taken.emplace(lowercase(n), "the bot " + (bots_dir / n).string());
    for (const ImportedFolder& f : folders) taken[lowercase(f.name)] = "answer " + std::to_string(f.answer_id);

    ImportPlan plan;
    std::set<std::int64_t> present;
    for (const Answer& answer : answers) {
        present.insert(answer.answer_id);
        ImportRow row{ImportStatus::skipped, answer.answer_id, "", ""};
        const auto existing = folder_of.find(answer.answer_id);
        std::variant<AnswerBot, NotABot> made = answer_bot(answer);
        if (const NotABot* no = std::get_if<NotABot>(&made)) {
            row.detail = no->why;
            if (existing != folder_of.end()) {
                row.bot = existing->second;
                row.detail += "; its bot is kept as imported before";
            }
            plan.rows.push_back(std::move(row));
            continue;
        }
        AnswerBot& bot = std::get<AnswerBot>(made);
        row.detail = bot.language;
        if (existing != folder_of.end()) {
            row.bot = existing->second;
            keep_local_manifest(bots_dir / row.bot, bot, row);
            row.status = holds_files(bots_dir / row.bot, bot.files) ? ImportStatus::unchanged : ImportStatus::updated;
        } else {
            row.status = ImportStatus::imported;
            row.bot = bot.name;
            if (const auto holder = taken.find(lowercase(bot.name)); holder != taken.end()) {
                row.detail += "; the name " + bot.name + " is taken by " + holder->second;
                // The suffixed name is checked too: another answer may have been named so.
                const std::string suffixed = bot.name + std::to_string(answer.answer_id);
                row.bot = suffixed;
                for (int k = 2; taken.contains(lowercase(row.bot)); ++k) row.bot = suffixed + "_" + std::to_string(k);
            }
            taken.emplace(lowercase(row.bot), "answer " + std::to_string(answer.answer_id));
        }
        if (row.status != ImportStatus::unchanged)
            plan.writes.push_back({plan.rows.size(), {row.bot, std::move(bot.files), answer_record(answer, bot, source)}});
        plan.rows.push_back(std::move(row));
    }
    if (source.question && source.complete)
        for (const ImportedFolder& f : folders) {
            if (f.question_id != *source.question || present.contains(f.answer_id)) continue;
            ImportRow row{prune ? ImportStatus::pruned : ImportStatus::deleted, f.answer_id, f.name,
                          prune ? "gone from the question; its folder is removed (--prune)"
                                : "gone from the question; its bot is kept (--prune removes it)"};
            if (prune) plan.removals.push_back(f.name);
            plan.rows.push_back(std::move(row));
        }
    return plan;
}

ImportPlan apply_import(ImportPlan plan, const fs::path& bots_dir) {
    for (const ImportWrite& write : plan.writes) try {
            write_bot_folder(bots_dir, write.folder);
        } catch (const std::exception& e) {
            ImportRow& row = plan.rows.at(write.row);
            row.detail = "not written: " + terminal_line(e.what()) +
                         (row.status == ImportStatus::updated ? "; its bot is kept as imported before" : "");
            row.status = ImportStatus::skipped;
        }
    for (const std::string& name : plan.removals) {
        std::error_code ec;
        fs::remove_all(bots_dir / name, ec);
        if (!ec) continue;
        for (ImportRow& row : plan.rows)
            if (row.status == ImportStatus::pruned && row.bot == name) {
                row.status = ImportStatus::deleted;
                row.detail = "gone from the question; its folder could not be removed: " + ec.message();
            }
    }
    return plan;
}

}  // namespace gol::runner
