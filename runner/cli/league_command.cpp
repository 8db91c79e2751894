#include "runner/cli/command.hpp"
#include "runner/cli/game_options.hpp"

#include "runner/sys/interrupt.hpp"
#include "runner/report/timing_summary.hpp"
#include "runner/report/leaderboard_page.hpp"
#include "runner/report/progress.hpp"
#include "runner/report/league_pages.hpp"
#include "runner/report/standings_tables.hpp"
#include "runner/league/league.hpp"
#include "runner/league/tournament.hpp"
#include "runner/text/json_text.hpp"
#include "runner/text/terminal_text.hpp"
#include "runner/text/time_text.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <iostream>
#include <memory>
#include <optional>
#include <thread>

namespace gol::runner::cli {

namespace {

// Its GivenOptions override the tournament file.
struct LeagueArgs : GivenOptions {
    std::string bots_dir;
    std::string tournament;
    std::string results;
    std::string cache;
    std::vector<std::filesystem::path> interpreters;
    GameOptions game;
    int games_per_pair = 2;
    std::string scoring = "wins";
    std::uint64_t seed = 1;
    // Half the CPUs: each game keeps one busy (its bot and the runner take turns), and the rest
    // is room for the runner's own work and a CPU's other hardware thread, so that a move takes
    // as long in a league as alone (docs/league.md).
    int jobs = static_cast<int>(std::max(1u, std::thread::hardware_concurrency() / 2));
    bool quiet = false;
    bool plan = false;
    std::string one_game;  // --game: an index or a key
    std::string gauntlet;  // --gauntlet: a bot's name
    std::string rerun;     // --rerun: a game's key or a bot's name
    int until_separated = 0;  // --until-separated: the budget of added games
    std::string format = "text";
};

// html is the leaderboard page of the store in `results_dir`, whose links expect that folder around it.
std::string render(const LeagueTable& table, const std::string& format, const std::filesystem::path& results_dir) {
    return format == "html" ? leaderboard_page(table, store_heading(results_dir))
                            : format_table(table, *table_format_from_name(format));
}

// The league's options: each flag given, else the tournament file's key, else the default.
struct Resolved {
    LeagueOptions options;
    bool sandboxed = true;
    std::string format;
};

Resolved resolve(const LeagueArgs& a) {
    Resolved r;
    LeagueOptions& o = r.options;
    Tournament t;
    if (!a.tournament.empty()) t = read_tournament(a.tournament);
    const auto pick = [&a](const char* flag, const auto& in_file, const auto& flag_value) {
        return a.set(flag) || !in_file ? flag_value : *in_file;
    };
    GameConfig& c = o.settings.config;
    c.width = pick("--width", t.width, a.game.config.width);
    c.height = pick("--height", t.height, a.game.config.height);
    c.generations = pick("--generations", t.generations, a.game.config.generations);
    c.time_bank_s = pick("--time-bank", t.time_bank_s, a.game.config.time_bank_s);
    o.settings.time_limit_ms = pick("--time-limit", t.time_limit_ms, a.game.time_limit_ms);
    o.settings.memory_limit_mb = pick("--memory-limit", t.memory_limit_mb, a.game.memory_limit_mb);
    o.settings.cpu_limit_s = pick("--cpu-limit", t.cpu_limit_s, a.game.cpu_limit_s);
    o.settings.startup_limit_ms = pick("--startup-limit", t.startup_limit_ms, a.game.startup_limit_ms);
    o.settings.cpu_time = pick("--time-mode", t.time_mode, a.game.time_mode) == "cpu";
    o.settings.games_per_pair = pick("--games-per-pair", t.games_per_pair, a.games_per_pair);
    o.settings.seed = pick("--seed", t.seed, a.seed);
    o.settings.gauntlet = a.gauntlet;
    o.rerun = a.rerun;
    o.scoring = *scoring_from_name(pick("--scoring", t.scoring, a.scoring));
    o.bots_dir = pick("DIR", t.bots, std::filesystem::path(a.bots_dir.empty() ? "bots" : a.bots_dir));
    if (!std::filesystem::is_directory(o.bots_dir))
        throw UsageError("bots folder " + o.bots_dir.string() + " does not exist or is not a directory");
    if (!a.results.empty()) o.results_dir = a.results;
    else if (!a.tournament.empty()) o.results_dir = t.results_dir();
    else o.results_dir = std::filesystem::absolute(o.bots_dir).lexically_normal().parent_path() / "results";
    o.cache_dir = !a.cache.empty() ? std::filesystem::path(a.cache) : t.cache ? *t.cache : default_cache_dir();
    o.jobs = pick("--jobs", t.jobs, a.jobs);
    o.interpreters = pick("--interpreter", t.interpreters, a.interpreters);
    o.warm = !(a.game.cold || t.cold.value_or(false));
    o.until_separated = pick("--until-separated", t.until_separated, a.until_separated);
    // Leagues run strangers' code: sandboxed unless told not to. One that cannot be stops.
    const bool flag_says = a.game.sandboxed();  // throws when both flags are given
    r.sandboxed = a.game.no_sandbox || a.game.sandbox || !t.sandbox ? flag_says : *t.sandbox;
    r.format = pick("--format", t.format, a.format);
    return r;
}

// --game's value, checked before any bot is prepared.
GameChoice game_choice(const std::string& v) {
    if (v.size() == 64 && std::all_of(v.begin(), v.end(), [](unsigned char c) { return std::isdigit(c) || (c >= 'a' && c <= 'f'); }))
        return v;
    if (!v.empty() && v.size() <= 18 && std::all_of(v.begin(), v.end(), [](unsigned char c) { return std::isdigit(c); }))
        return static_cast<std::size_t>(std::stoull(v));
    throw UsageError("--game " + terminal_line(v) + ": neither a game's index (0, 1, ... as --plan lists them) nor its key (64 hex digits)");
}

std::string plan_text(const LeaguePlan& plan, const std::string& format) {
    const auto dump = [](const nlohmann::ordered_json& j) {
        return j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
    };
    const TimeEstimate& e = plan.estimate;
    nlohmann::ordered_json totals = {{"games", plan.total},
                                     {"stored", plan.stored},
                                     {"to_play", plan.to_play.size()},
                                     {"estimate_s", std::lround(e.total_seconds)},
                                     {"assumed", e.assumed}};
    // In the brief's order, one line each, so that a shell loop or GNU parallel can take them.
    std::vector<nlohmann::ordered_json> entries;
    for (std::size_t i = 0; i < plan.to_play.size(); ++i) {
        const PlannedGame& g = plan.to_play[i];
        entries.push_back({{"index", g.index}, {"key", g.key}, {"seat1", g.bots[0]}, {"seat2", g.bots[1]},
                           {"game", g.game}, {"estimate_s", std::lround(e.game_seconds[i])}});
    }
    if (format == "json") {
        totals["plan"] = entries;
        return dump(totals) + "\n";
    }
    std::string out;
    for (const nlohmann::ordered_json& entry : entries) out += dump(entry) + "\n";
    return out + dump(totals) + "\n";
}

// The estimate for a person, on stderr: stdout's lines are for scripts.
std::string plan_words(const LeaguePlan& plan, int jobs) {
    std::string out = "league: plan: " + std::to_string(plan.to_play.size()) + " of " + std::to_string(plan.total) +
                      " games to play, about " +
                      format_duration(std::chrono::seconds(std::lround(plan.estimate.total_seconds))) + " at -j " +
                      std::to_string(jobs);
    if (!plan.to_play.empty()) {
        const auto longest = std::max_element(plan.estimate.game_seconds.begin(), plan.estimate.game_seconds.end());
        const PlannedGame& g = plan.to_play[static_cast<std::size_t>(longest - plan.estimate.game_seconds.begin())];
        out += "; the longest game " + format_duration(std::chrono::seconds(std::lround(*longest))) + " (" +
               terminal_line(g.bots[0]) + " vs " + terminal_line(g.bots[1]) + ")";
    }
    out += "\n";
    for (const std::string& a : plan.estimate.assumed) out += "league: plan: assumed " + terminal_line(a) + "\n";
    return out;
}

int run_league_command(const LeagueArgs& a) {
    std::optional<GameChoice> choice;
    if (a.set("--game")) choice = game_choice(a.one_game);
    Resolved resolved = resolve(a);
    LeagueOptions& o = resolved.options;
    // Before anything else, so that its watch of the 5 s after a stop (interrupt.hpp) lasts until
    // the rest is gone: the sandbox's work area, the pages, the bots' processes.
    ProcessRegistry registry;
    InterruptWatcher interrupt(registry);
    PlaySetup setup(resolved.sandboxed);
    o.area = &setup.area();
    o.sandbox = setup.sandbox();
    o.settings.sandboxed = o.sandbox != nullptr;
    if (o.sandbox && !a.quiet && !a.plan) std::cerr << "league: limits: " << o.sandbox->limits_line() << "\n";
    if (a.plan) {
        const LeaguePlan plan = plan_league(o, stderr);
        if (!a.quiet) std::cerr << plan_words(plan, o.jobs);
        std::cout << plan_text(plan, resolved.format);
        return 0;
    }
    LeaguePages pages(stderr, !choice);
    o.observer = &pages;
    if (choice) {
        // Its viewer page is written, the leaderboard page is left to a league run, since other
        // such runs may be storing games at the same time.
        const OneGameOutcome outcome = play_league_game(o, *choice, registry, interrupt.token(), stderr);
        const std::string game = "league: game " + std::to_string(outcome.game.index) + " of " +
                                 std::to_string(outcome.total) + ", " + terminal_line(outcome.game.bots[0]) + " vs " +
                                 terminal_line(outcome.game.bots[1]);
        if (outcome.interrupted) {
            std::cerr << game << ": interrupted; nothing of it is stored\n";
            return 128 + interrupt.signal();
        }
        if (!a.quiet) std::cerr << game << (outcome.played ? ": played and stored\n" : ": already stored\n");
        return 0;
    }
    std::optional<LeagueProgressDisplay> progress;
    if (!a.quiet) o.progress = &progress.emplace(stderr);
    const LeagueOutcome outcome = run_league(o, registry, interrupt.token(), stderr);
    if (outcome.interrupted) {
        std::cerr << "league: interrupted; " << outcome.stored << " of " << outcome.scheduled
                  << (o.settings.gauntlet.empty() ? "" : " gauntlet") << " games are stored, run the same command again"
                  << " to play the rest\n";
        return 128 + interrupt.signal();
    }
    // A warning, not progress: --quiet keeps it.
    std::cerr << timing_summary(outcome.table);
    std::cout << render(outcome.table, resolved.format, o.results_dir);
    return 0;
}

struct TableArgs {
    std::string results;
    std::string tournament;
    std::string format = "text";
    std::string scoring;
    CLI::Option* format_given = nullptr;
};

int run_table_command(const TableArgs& a) {
    std::filesystem::path dir = a.results;
    std::string format = a.format;
    if (!a.tournament.empty()) {
        const Tournament t = read_tournament(a.tournament);
        if (dir.empty()) dir = t.results_dir();
        if (!a.format_given->count() && t.format) format = *t.format;
    }
    if (dir.empty()) throw UsageError("say which results to show: --results DIR or --tournament FILE");
    LeagueTable table;
    try {
        table = table_from_store(dir, a.scoring.empty() ? std::nullopt : scoring_from_name(a.scoring));
    } catch (const StoreError& e) {
        throw UsageError(e.what());
    }
    // Without this, a league's first minutes look like a table of bots tied at zero.
    // An arena's index lists no schedule up front (games_per_pair 0): there is no "of N" to say.
    if (league_playing_into(dir) && table.settings.games_per_pair == 0)
        std::cerr << "table: an arena is serving into this store: " << table.games.size()
                  << " games recorded; the table shows the games so far\n";
    else if (league_playing_into(dir))
        std::cerr << "table: a league is still playing into this store: " << table.games.size() << " of "
                  << table.total << " games recorded; the table shows the games so far\n";
    std::cout << render(table, format, dir);
    return 0;
}

const auto kFormats = CLI::IsMember({"text", "markdown", "json", "csv", "html"});
const auto kScorings = CLI::IsMember({"wins", "points", "half", "kd"});

}  // namespace

void add_league(CLI::App& app, Action& run) {
    auto a = std::make_shared<LeagueArgs>();
    CLI::App* cmd = app.add_subcommand("league", "Play every bot in a folder against every other");
    a->command = cmd;
    cmd->add_option("DIR", a->bots_dir, "Folder of bots (default: bots, or the tournament's)");
    cmd->add_option("--tournament", a->tournament, "Tournament file with the settings");
    add_game_options(*cmd, a->game);
    add_time_bank_option(*cmd, a->game.config);
    cmd->add_option("--games-per-pair", a->games_per_pair, "Games each pair plays, half in each seat order")
        ->check(CLI::Range(2, 1000))
        ->check(CLI::Validator([](std::string& v) { return std::stoi(v) % 2 ? "must be even" : ""; }, "EVEN"))
        ->capture_default_str();
    cmd->add_option("--scoring", a->scoring, "wins (2016), points 3/1/0, half 1/0.5/0, kd wins-losses")
        ->check(kScorings)
        ->capture_default_str();
    cmd->add_option("--seed", a->seed, "League seed: games' seeds derive from it")->capture_default_str();
    cmd->add_option("-j,--jobs", a->jobs, "Games at once")->check(CLI::Range(1, 256))->capture_default_str();
    cmd->add_option("--results", a->results, "Results store (default: the tournament's folder, or results/ beside DIR)");
    cmd->add_option("--cache", a->cache, "Build cache (default $XDG_CACHE_HOME/gol-runner or ~/.cache/gol-runner)");
    add_interpreter_option(*cmd, a->interpreters);
    cmd->add_option("--format", a->format, "Table format")->check(kFormats)->capture_default_str();
    cmd->add_flag("--quiet", a->quiet, "No progress: no live line, no line per game");
    CLI::Option* plan = cmd->add_flag(
        "--plan", a->plan, "Play nothing: list the games the store does not hold yet, a JSON object a line");
    CLI::Option* game = cmd->add_option(
        "--game", a->one_game, "Play only this game of the schedule, by its index or key (as --plan lists it)");
    plan->excludes(game);
    cmd->add_option("--gauntlet", a->gauntlet, "Play only this bot's games, against every other bot")
        ->check(CLI::Validator([](std::string& v) { return v.empty() ? "must not be empty" : ""; }, "BOT"));
    CLI::Option* rerun = cmd->add_option(
        "--rerun", a->rerun, "Forget the stored results of this game (its key) or of every game of this bot, and play "
                             "them again with the rest of the league");
    rerun->check(CLI::Validator([](std::string& v) { return v.empty() ? "must not be empty" : ""; }, "KEY|BOT"));
    rerun->excludes(plan)->excludes(game);
    cmd->add_option("--until-separated", a->until_separated,
                    "After the schedule, add game pairs to adjacent bots whose order is uncertain (likelihood of "
                    "superiority between 5% and 95%) until none is, or BUDGET more games were played; a pair "
                    "whose bots, shown again boards of their games, make the same moves gets none")
        ->type_name("BUDGET")
        ->check(CLI::Range(2, 1000000))
        ->excludes(plan)
        ->excludes(game);
    cmd->callback([a, &run] { run = [a] { return run_league_command(*a); }; });
}

void add_table(CLI::App& app, Action& run) {
    auto a = std::make_shared<TableArgs>();
    CLI::App* cmd = app.add_subcommand("table", "Print a league's table from its results store, playing nothing");
    cmd->add_option("--results", a->results, "Results store");
    cmd->add_option("--tournament", a->tournament, "Tournament file whose results to show");
    a->format_given = cmd->add_option("--format", a->format, "Table format")->check(kFormats)->capture_default_str();
    cmd->add_option("--scoring", a->scoring, "Score with another system than the league's")->check(kScorings);
    cmd->callback([a, &run] { run = [a] { return run_table_command(*a); }; });
}

}  // namespace gol::runner::cli
