// `runner import`: a question's answers, from the Stack Exchange API or a saved response, into
// bot folders (docs/league.md, "From the question page to a league").
#include "runner/cli/command.hpp"

#include "runner/import/answer_import.hpp"
#include "runner/import/answer_page.hpp"
#include "runner/league/tournament.hpp"
#include "runner/import/https_get.hpp"
#include "runner/text/terminal_text.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>
#include <optional>

namespace gol::runner::cli {

namespace {

struct ImportOptions {
    std::string from;
    std::optional<std::int64_t> question;
    std::string site = "codegolf";
    std::filesystem::path bots_dir;
    std::filesystem::path tournament;
    bool dry_run = false;
    bool prune = false;
};

struct ImportInput {
    std::vector<Answer> answers;
    ImportSource source;
    std::string origin;  // for the first line of the output
};

ImportInput read_saved(const ImportOptions& o) {
    std::ifstream in(o.from, std::ios::binary);
    if (!in) throw UsageError("--from " + terminal_line(o.from) + ": cannot be read");
    const std::string text(std::istreambuf_iterator<char>(in), {});
    AnswerPage page;
    try {
        page = parse_answer_page(text, o.from);
    } catch (const AnswerPageError& e) {
        throw UsageError(std::string("--from ") + e.what());
    }
    ImportInput read{std::move(page.answers), {o.site, std::nullopt, !page.has_more}, terminal_line(o.from)};
    // The file names its question in every item.
    if (!read.answers.empty() && read.answers.front().question_id &&
        std::all_of(read.answers.begin(), read.answers.end(),
                    [&](const Answer& a) { return a.question_id == read.answers.front().question_id; }))
        read.source.question = read.answers.front().question_id;
    if (page.has_more)
        std::cout << "import: " << read.origin << " is one page of several (has_more): no answer is reported "
                  << "deleted from it; --question ID fetches them all\n";
    return read;
}

ImportInput fetch(const ImportOptions& o) {
    ImportInput fetched{{}, {o.site, o.question, true}, "question " + std::to_string(*o.question) + " on " + o.site};
    try {
        fetched.answers = fetch_answers(*o.question, o.site);
    } catch (const FetchError& e) {
        throw FetchError(std::string(e.what()) + "; a saved API response imports with --from FILE");
    }
    return fetched;
}

// `s` and spaces to `width`, at least one.
std::string padded(std::string s, std::size_t width) {
    s.resize(std::max(width, s.size() + 1), ' ');
    return s;
}

void print_table(const ImportPlan& plan) {
    std::size_t bot_width = 3;
    for (const ImportRow& row : plan.rows) bot_width = std::max(bot_width, row.bot.size());
    std::cout << "  " << padded("status", 11) << padded("answer", 11) << padded("bot", bot_width + 2) << "detail\n";
    for (const ImportRow& row : plan.rows)
        std::cout << "  " << padded(std::string(name(row.status)), 11) << padded(std::to_string(row.answer_id), 11)
                  << padded(row.bot.empty() ? "-" : row.bot, bot_width + 2) << row.detail << "\n";
}

int run_import(ImportOptions o) {
    if (o.from.empty() == !o.question) throw UsageError("import needs either --from FILE or --question ID");
    if (o.bots_dir.empty() == o.tournament.empty()) throw UsageError("import needs either --bots DIR or --tournament FILE");
    if (!o.tournament.empty()) {
        try {
            // Where the league of that tournament finds its bots.
            o.bots_dir = read_tournament(o.tournament).bots.value_or("bots");
        } catch (const TournamentError& e) {
            throw UsageError(e.what());
        }
    }
    if (o.question && *o.question <= 0) throw UsageError("--question must be a question's number, such as 111111");
    if (o.site.empty() || !std::all_of(o.site.begin(), o.site.end(), [](char c) {
            return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-';
        }))
        throw UsageError("--site " + terminal_line(o.site) + ": a Stack Exchange site's API name, such as codegolf");
    if (std::error_code ec; std::filesystem::exists(o.bots_dir, ec) && !std::filesystem::is_directory(o.bots_dir, ec))
        throw UsageError("--bots " + terminal_line(o.bots_dir.string()) + ": not a folder");

    ImportInput answers;
    if (o.question) {
        // Not reached, or refused (FetchError, AnswerPageError): no fault of the command line.
        try {
            answers = fetch(o);
        } catch (const std::runtime_error& e) {
            std::cerr << "runner: error: " << e.what() << '\n';
            return 1;
        }
    } else {
        answers = read_saved(o);
    }
    const std::size_t count = answers.answers.size();
    ImportPlan plan = plan_import(std::move(answers.answers), o.bots_dir, answers.source, o.prune);
    // Written before the table is printed, so that the table says what became of each answer.
    if (!o.dry_run) plan = apply_import(std::move(plan), o.bots_dir);
    std::cout << "import: " << count << (count == 1 ? " answer" : " answers") << " from " << answers.origin << " into "
              << terminal_line(o.bots_dir.string()) << (o.dry_run ? " (dry run: nothing is written)" : "") << "\n";
    print_table(plan);
    std::cout << "import:";
    const char* separator = " ";
    for (ImportStatus status : {ImportStatus::imported, ImportStatus::updated, ImportStatus::unchanged,
                                ImportStatus::skipped, ImportStatus::deleted, ImportStatus::pruned}) {
        const auto n = std::count_if(plan.rows.begin(), plan.rows.end(), [&](const ImportRow& r) { return r.status == status; });
        if (n == 0 && (status == ImportStatus::deleted || status == ImportStatus::pruned)) continue;
        std::cout << separator << n << ' ' << name(status);
        separator = ", ";
    }
    std::cout << (o.dry_run ? " (dry run)" : "") << "\n";
    return 0;
}

}  // namespace

void add_import(CLI::App& app, Action& run) {
    auto o = std::make_shared<ImportOptions>();
    CLI::App* cmd = app.add_subcommand("import", "Write a question's answers as bot folders (Stack Exchange API)");
    CLI::Option* from = cmd->add_option("--from", o->from, "A saved API response: /questions/ID/answers?filter=withbody");
    CLI::Option* question = cmd->add_option("--question", o->question, "Fetch every answer of this question over HTTPS");
    from->excludes(question);
    cmd->add_option("--site", o->site, "The Stack Exchange site")->capture_default_str();
    CLI::Option* bots = cmd->add_option("--bots", o->bots_dir, "The bots folder to write into");
    cmd->add_option("--tournament", o->tournament, "Or the bots folder of this tournament file")->excludes(bots);
    cmd->add_flag("--dry-run", o->dry_run, "Print what would change, write nothing");
    cmd->add_flag("--prune", o->prune, "Remove the bots of answers deleted from the question");
    cmd->callback([o, &run] { run = [o] { return run_import(*o); }; });
}

}  // namespace gol::runner::cli
