// `runner import`: a question's answers, from the Stack Exchange API or a saved response, into
// bot folders (docs/league.md, "From the question page to a league").
#include "runner/cli/command.hpp"

#include "runner/import/answer_import.hpp"
#include "runner/import/answer_page.hpp"
#include "runner/import/git_fetch.hpp"
#include "runner/league/tournament.hpp"
#include "runner/import/https_get.hpp"
#include "runner/text/terminal_text.hpp"

#include <algorithm>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
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
    // Bots from git repositories (docs/league.md, "Bots from git repositories").
    std::string git;
    std::string branch = "main";
    std::string name;
    bool repositories = false;
    bool allow_file_urls = false;
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

// --git URL or --repositories: a row per repository, the bot's commit after the fetch.
int run_git_import(const ImportOptions& o, const std::vector<TournamentRepository>& repositories) {
    const GitOptions options{.allow_file = o.allow_file_urls};
    std::vector<GitSource> sources;
    for (const TournamentRepository& r : repositories) {
        const std::string at = o.repositories ? "the repository " + r.name + ": " : "--git " + terminal_line(r.url) + ": ";
        // A tournament's URLs were checked with file:// allowed; a flag decides whether it is fetched.
        if (auto why = refused_git_url(r.url, o.allow_file_urls)) throw UsageError(at + *why);
        if (auto why = refused_branch(r.branch)) throw UsageError(at + "--branch " + terminal_line(r.branch) + ": " + *why);
        if (auto why = refused_bot_name(r.name))
            throw UsageError(at + (r.name.empty() ? "its name cannot be told from the URL; give --name" : "--name " + terminal_line(r.name) + ": " + *why));
        sources.push_back({r.name, r.url, r.branch});
    }
    std::cout << "import: " << sources.size() << (sources.size() == 1 ? " repository" : " repositories") << " into "
              << terminal_line(o.bots_dir.string()) << "\n";
    std::size_t width = 3;
    for (const GitSource& s : sources) width = std::max(width, s.name.size());
    std::cout << "  " << padded("status", 11) << padded("bot", width + 2) << padded("commit", 14) << "detail\n";
    std::map<GitStatus, int> counts;
    for (const GitSource& s : sources) {
        const GitFetch f = fetch_git_bot(s, o.bots_dir, options);
        ++counts[f.status];
        const std::string where = terminal_line(s.url) + " " + terminal_line(s.branch);
        std::cout << "  " << padded(std::string(name(f.status)), 11) << padded(s.name, width + 2)
                  << padded(f.commit.empty() ? "-" : f.commit.substr(0, 12), 14)
                  << (f.status != GitStatus::failed  ? where
                      : f.commit.empty()             ? f.detail + "; no commit fetched yet"
                                                     : f.detail + "; keeps commit " + f.commit.substr(0, 12))
                  << "\n";
    }
    std::string line;
    for (GitStatus status : {GitStatus::imported, GitStatus::updated, GitStatus::unchanged, GitStatus::failed})
        line += (line.empty() ? " " : ", ") + std::to_string(counts[status]) + " " + std::string(name(status));
    std::cout << "import:" << line << "\n";
    // One repository named on the command line: its failure is the command's. A tournament's: each
    // is its own row, the others are fetched, and the league warns of the failed ones.
    return !o.repositories && counts[GitStatus::failed] > 0 ? 1 : 0;
}

int run_import(ImportOptions o) {
    const int sources = !o.from.empty() + o.question.has_value() + !o.git.empty() + o.repositories;
    if (sources != 1)
        throw UsageError("import needs one of --from FILE, --question ID, --git URL or --repositories (with --tournament)");
    if (o.bots_dir.empty() == o.tournament.empty()) throw UsageError("import needs either --bots DIR or --tournament FILE");
    if ((o.repositories || !o.git.empty()) && (o.dry_run || o.prune))
        throw UsageError("--dry-run and --prune are for answers, not for --git or --repositories");
    if (o.repositories && o.tournament.empty()) throw UsageError("--repositories fetches those a tournament file lists: give --tournament FILE");
    Tournament tournament;
    if (!o.tournament.empty()) {
        tournament = read_tournament(o.tournament);
        // Where the league of that tournament finds its bots.
        o.bots_dir = tournament.bots.value_or("bots");
    }
    if (std::error_code ec; std::filesystem::exists(o.bots_dir, ec) && !std::filesystem::is_directory(o.bots_dir, ec))
        throw UsageError("--bots " + terminal_line(o.bots_dir.string()) + ": not a folder");
    if (o.repositories) return run_git_import(o, tournament.repositories.value_or(std::vector<TournamentRepository>{}));
    if (!o.git.empty())
        return run_git_import(o, {{o.name.empty() ? bot_name_from_url(o.git) : o.name, o.git, o.branch}});
    if (o.question && *o.question <= 0) throw UsageError("--question must be a question's number, such as 111111");
    if (o.site.empty() || !letters_digits_or(o.site, ".-"))
        throw UsageError("--site " + terminal_line(o.site) + ": a Stack Exchange site's API name, such as codegolf");

    ImportInput answers;
    if (o.question) {
        // Not reached, or refused (FetchError, AnswerPageError): no fault of the command line.
        answers = {{}, {o.site, o.question, true}, "question " + std::to_string(*o.question) + " on " + o.site};
        try {
            answers.answers = fetch_answers(*o.question, o.site);
        } catch (const std::runtime_error& e) {
            std::cerr << "runner: error: " << e.what()
                      << (dynamic_cast<const FetchError*>(&e) ? "; a saved API response imports with --from FILE" : "") << '\n';
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
    std::string line;
    for (ImportStatus status : {ImportStatus::imported, ImportStatus::updated, ImportStatus::unchanged,
                                ImportStatus::skipped, ImportStatus::deleted, ImportStatus::pruned}) {
        const auto n = std::count_if(plan.rows.begin(), plan.rows.end(), [&](const ImportRow& r) { return r.status == status; });
        if (n == 0 && (status == ImportStatus::deleted || status == ImportStatus::pruned)) continue;
        line += (line.empty() ? " " : ", ") + std::to_string(n) + " " + std::string(name(status));
    }
    std::cout << "import:" << line << (o.dry_run ? " (dry run)" : "") << "\n";
    return 0;
}

}  // namespace

void add_import(CLI::App& app, Action& run) {
    auto o = std::make_shared<ImportOptions>();
    CLI::App* cmd = app.add_subcommand("import", "Write a question's answers, or bots from git repositories, as bot folders");
    CLI::Option* from = cmd->add_option("--from", o->from, "A saved API response: /questions/ID/answers?filter=withbody");
    CLI::Option* question = cmd->add_option("--question", o->question, "Fetch every answer of this question over HTTPS");
    from->excludes(question);
    cmd->add_option("--site", o->site, "The Stack Exchange site")->capture_default_str();
    CLI::Option* bots = cmd->add_option("--bots", o->bots_dir, "The bots folder to write into");
    cmd->add_option("--tournament", o->tournament, "Or the bots folder of this tournament file")->excludes(bots);
    cmd->add_flag("--dry-run", o->dry_run, "Print what would change, write nothing");
    cmd->add_flag("--prune", o->prune, "Remove the bots of answers deleted from the question");
    CLI::Option* git = cmd->add_option("--git", o->git, "Fetch a bot from this git repository (https://, git://, ssh://)");
    git->excludes(from)->excludes(question);
    cmd->add_option("--branch", o->branch, "With --git: the branch whose last commit is fetched")->capture_default_str()->needs(git);
    cmd->add_option("--name", o->name, "With --git: the bot's name (default: the URL's last part)")->needs(git);
    cmd->add_flag("--repositories", o->repositories, "Fetch every repository the --tournament file lists")
        ->excludes(from)->excludes(question)->excludes(git);
    cmd->add_flag("--allow-file-urls", o->allow_file_urls, "Also fetch file:// URLs (tests; a repository of this machine)");
    cmd->callback([o, &run] { run = [o] { return run_import(*o); }; });
}

}  // namespace gol::runner::cli
