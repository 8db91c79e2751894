// From a question's answers to bot folders (`runner import`): which answers are bots, in which
// language and under which name, and what an import changes in a bots folder.
#pragma once

#include "runner/import/answer_page.hpp"
#include "runner/import/imported_bots.hpp"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace gol::runner {

// An answer as a bot: the header "Language, Bot name" and the first code block.
struct AnswerBot {
    std::string language;  // as the runner names it ("Python 3")
    std::string name;      // the header's letters and digits ("Random Bot!" -> "RandomBot")
    std::string header;
    std::vector<BotFile> files;  // the source and bot.json
};

// Why an answer is not a bot: no header, no code block, a language the runner cannot run.
struct NotABot {
    std::string why;
};

std::variant<AnswerBot, NotABot> answer_bot(const Answer& answer);

// The languages the runner can run, as answer_bot() names them.
std::string known_languages();

enum class ImportStatus { imported, updated, unchanged, skipped, deleted, pruned };
std::string_view name(ImportStatus status);

struct ImportRow {
    ImportStatus status = ImportStatus::skipped;
    std::int64_t answer_id = 0;
    std::string bot;     // the folder's name; "" for an answer that is no bot
    std::string detail;  // the language, or why (skipped), or what was resolved (a name taken)
};

struct ImportSource {
    std::string site;                     // recorded in answer.json
    std::optional<std::int64_t> question;  // when known: folders of its answers that are gone are `deleted`
    // All the question's answers, not one page of several: only then is a missing answer deleted.
    bool complete = true;
};

// A bot folder to write, and the row that reports it.
struct ImportWrite {
    std::size_t row = 0;
    BotFolder folder;
};

struct ImportPlan {
    std::vector<ImportRow> rows;             // by answer id, then the deleted ones
    std::vector<ImportWrite> writes;         // imported and updated bots
    std::vector<std::string> removals;       // pruned folders
};

// Compares the answers with what `bots_dir` holds. An answer imported before keeps its folder;
// it is updated only when its source or bot.json would change (answer.json records the answer
// as of the import that wrote the code, so a new score alone changes no bot). A new bot whose
// name is taken, case aside, by another bot of the folder or an older answer gets its answer's id
// appended (and "_2", "_3"... while that is taken too). With `prune`, the folders of deleted
// answers are removed, else kept.
ImportPlan plan_import(std::vector<Answer> answers, const std::filesystem::path& bots_dir, const ImportSource& source,
                       bool prune);

// Writes the plan's folders and removes its pruned ones; returns the plan as done. A folder that
// cannot be written is its answer's failure alone: its row becomes `skipped`, saying why, and the
// others go on.
ImportPlan apply_import(ImportPlan plan, const std::filesystem::path& bots_dir);

}  // namespace gol::runner
