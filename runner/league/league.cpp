#include "runner/league/league.hpp"

#include "runner/sys/atomic_file.hpp"
#include "runner/bots/bot_player.hpp"
#include "runner/sys/cpu_pin.hpp"
#include "runner/text/terminal_text.hpp"

#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>
#include <sstream>
#include <thread>

namespace gol::runner {

namespace fs = std::filesystem;

namespace {

struct Roster {
    std::vector<PreparedBot> bots;  // sorted by name
    std::vector<ExcludedBot> excluded;
    std::map<std::string, std::string> paths;  // for the index: who has held each name here
};

// A bot's path as the index keeps it: the same however the bots folder was named.
std::string index_path(const fs::path& p) { return fs::absolute(p).lexically_normal().string(); }

// The index's record of which bot held each name, or none: a new store, or an index written
// before paths were kept.
std::map<std::string, std::string> previous_paths(const fs::path& results_dir, std::FILE* log) {
    if (!fs::exists(results_dir / "league.json")) return {};
    try {
        return load_index(results_dir).paths;
    } catch (const StoreError& e) {
        std::fprintf(log, "league: %s; taking no bot's name as held before\n", terminal_line(e.what()).c_str());
        return {};
    }
}

// Why `bot` may not play under its name, which the bots at `claimants` (itself among them)
// share; nullopt when it keeps the name, having held it in an earlier run of this store. The
// league goes on either way: one newcomer must not stop a nightly run.
std::optional<std::string> name_clash(const Discovered& bot, const std::vector<fs::path>& claimants,
                                      const std::map<std::string, std::string>& paths) {
    const std::string& name = bot.bot->name;
    const auto held = paths.find(name);
    const auto holder = std::find_if(claimants.begin(), claimants.end(), [&](const fs::path& p) {
        return held != paths.end() && index_path(p) == held->second;
    });
    if (holder != claimants.end() && *holder == bot.path) return std::nullopt;
    const std::string self = terminal_line(bot.path.string());
    if (holder != claimants.end())
        return self + " is named \"" + name + "\" like " + terminal_line(holder->string()) +
               ", which has played under that name in these results and keeps it; rename " + self +
               " (or set \"name\" in its bot.json)";
    std::string others;
    for (const fs::path& p : claimants)
        if (p != bot.path) others += (others.empty() ? "" : ", ") + terminal_line(p.string());
    return self + " is named \"" + name + "\" like " + others +
           ", and none of them has played under that name in these results, so none plays; rename all but one "
           "(or set \"name\" in its bot.json)";
}

Roster build_roster(const LeagueOptions& o, std::FILE* log) {
    Roster roster;
    roster.paths = previous_paths(o.results_dir, log);
    const std::vector<Discovered> found = discover_bots(o.bots_dir);
    std::map<std::string, std::vector<fs::path>> claimants;  // by name
    for (const Discovered& d : found)
        if (d.bot) claimants[d.bot->name].push_back(d.path);
    BuildOptions build{o.cache_dir};
    build.sandbox = o.sandbox;
    for (const Discovered& d : found) {
        // A file name is printed as the bot's when the bot has no usable name.
        const std::string file_name = terminal_line(d.path.filename().string());
        if (!d.bot) {
            roster.excluded.push_back({file_name, d.error});
            continue;
        }
        if (const auto& rivals = claimants[d.bot->name]; rivals.size() > 1)
            if (std::optional<std::string> why = name_clash(d, rivals, roster.paths)) {
                roster.excluded.push_back({file_name, *why});
                continue;
            }
        try {
            roster.bots.push_back(prepare_bot(*d.bot, build));
            roster.paths[d.bot->name] = index_path(d.path);
        } catch (const BotError& e) {
            roster.excluded.push_back({d.bot->name, e.what()});
        } catch (const std::exception& e) {
            roster.excluded.push_back({d.bot->name, "cannot be prepared: " + terminal_lines(e.what())});
        }
    }
    std::sort(roster.bots.begin(), roster.bots.end(),
              [](const PreparedBot& a, const PreparedBot& b) { return a.spec.name < b.spec.name; });
    for (const ExcludedBot& e : roster.excluded) std::fprintf(log, "league: excluded %s: %s\n", e.bot.c_str(), e.reason.c_str());
    return roster;
}

// What the workers share: the games they stored and the first error, which stops them all. The
// progress is told under the same lock, so its calls come one at a time and in order.
class WorkerState {
public:
    WorkerState(LeagueProgress& progress, int reused, int total) : progress_(progress), reused_(reused), total_(total) {
        progress_.league_started(reused, total);
    }

    void started() {
        std::lock_guard lock(mutex_);
        progress_.game_started();
    }
    void finished(const std::array<std::string, 2>& bots, const GameResult& result) {
        std::lock_guard lock(mutex_);
        ++played_;
        progress_.game_finished({bots, result, reused_ + played_, total_});
    }
    void abandoned() {
        std::lock_guard lock(mutex_);
        progress_.game_abandoned();
    }
    void fail(std::string message) {
        std::lock_guard lock(mutex_);
        if (error_.empty()) error_ = std::move(message);
    }
    std::string error() {
        std::lock_guard lock(mutex_);
        return error_;
    }
    int played() {
        std::lock_guard lock(mutex_);
        return played_;
    }
    void done() {
        std::lock_guard lock(mutex_);
        progress_.league_done();
    }

private:
    std::mutex mutex_;
    LeagueProgress& progress_;
    const int reused_;
    const int total_;
    int played_ = 0;
    std::string error_;
};

}  // namespace

LeagueOutcome run_league(const LeagueOptions& o, ProcessRegistry& registry, std::stop_token stop, std::FILE* log) {
    Roster roster = build_roster(o, log);
    std::vector<ScheduledBot> names;
    for (const PreparedBot& b : roster.bots) names.push_back({b.spec.name, b.hash});
    const std::vector<ScheduledGame> schedule = schedule_league(names, o.settings);

    ResultsStore store(o.results_dir);
    LeagueIndex index{o.settings, std::string(name(o.scoring)), names, {}, roster.excluded, roster.paths};
    for (const ScheduledGame& g : schedule) index.keys.push_back(g.key);
    store.save_index(index);

    // A stored record counts only if it holds for the game scheduled under its key; any other
    // (forged, copied from another key, from an older runner) is played again and overwritten.
    std::vector<const ScheduledGame*> queue;
    for (const ScheduledGame& g : schedule) {
        try {
            if (store.load(g)) continue;
        } catch (const StoreError& e) {
            std::fprintf(log, "league: %s; playing that game again\n", e.what());
        }
        queue.push_back(&g);
    }
    const int reused = static_cast<int>(schedule.size() - queue.size());
    std::fprintf(log, "league: %zu bots, %zu excluded, %zu games: %d stored, %zu to play; results in %s\n",
                 roster.bots.size(), roster.excluded.size(), schedule.size(), reused, queue.size(),
                 o.results_dir.string().c_str());

    LeagueObserver none;
    LeagueObserver& observer = o.observer ? *o.observer : none;
    std::atomic<std::size_t> next{0};
    const int workers = queue.empty() ? 0 : std::max(1, std::min<int>(o.jobs, static_cast<int>(queue.size())));
    LeagueProgress no_progress;
    WorkerState state(o.progress ? *o.progress : no_progress, reused, static_cast<int>(schedule.size()));
    const MoveLimits limits =
        move_limits(o.settings.time_limit_ms, o.settings.memory_limit_mb, o.settings.cpu_limit_s);

    auto work = [&](int worker) {
        pin_to_nth_cpu(worker);
        for (std::size_t i; !stop.stop_requested() && state.error().empty() && (i = next++) < queue.size();) {
            const ScheduledGame& g = *queue[i];
            const PreparedBot& a = roster.bots[g.seats[0]];
            const PreparedBot& b = roster.bots[g.seats[1]];
            state.started();
            try {
                const BotHost host{*o.area, o.sandbox, &registry, o.warm};
                BotPlayer one(a, limits, host), two(b, limits, host);
                const ReplayHeader header{g.inputs.bots, g.inputs.hashes, o.settings.config, g.inputs.seed,
                                          o.settings.time_limit_ms};
                std::ostringstream log_text;
                GameLog game_log(log_text, header.bots);
                const PlayedGame game = play_and_record(one, two, header, game_log, stop);
                const GameRecord record = make_record(g, game.record.result, game.stats);
                store.save(record, replay_text(game.record), log_text.str());
                observer.game_stored(store, record, game);
                state.finished(header.bots, game.record.result);
            } catch (const GameInterrupted&) {
                state.abandoned();
            } catch (const std::exception& e) {
                state.fail(std::string("game ") + a.spec.name + " vs " + b.spec.name + ": " + e.what());
                state.abandoned();
            }
        }
    };
    {
        std::vector<std::jthread> threads;
        for (int i = 0; i < workers; ++i) threads.emplace_back(work, i);
    }
    state.done();

    if (std::string error = state.error(); !error.empty()) throw StoreError(error);

    LeagueOutcome outcome;
    outcome.interrupted = stop.stop_requested();
    outcome.table = table_from_store(o.results_dir, o.scoring, log);
    outcome.table.played = state.played();
    outcome.table.reused = reused;
    outcome.stored = reused + state.played();
    observer.run_finished(store, outcome.table);
    return outcome;
}

LeagueTable table_from_store(const fs::path& dir, std::optional<Scoring> scoring, std::FILE* log) {
    LeagueIndex index = load_index(dir);
    // The games as the index's bots and settings schedule them: each record is checked against
    // its game, as a league run checks it.
    const std::vector<ScheduledGame> schedule = schedule_league(index.bots, index.settings);
    std::vector<std::string> keys;
    for (const ScheduledGame& g : schedule) keys.push_back(g.key);
    if (keys != index.keys)
        throw StoreError((dir / "league.json").string() +
                         ": its games are not the ones its bots and settings schedule; run the league again");
    std::vector<GameRecord> records;
    for (const ScheduledGame& g : schedule) {
        try {
            if (auto r = load_record(dir, g)) records.push_back(std::move(*r));
        } catch (const StoreError& e) {
            std::fprintf(log, "table: %s; left out of the table\n", e.what());
        }
    }
    std::vector<std::string> bots;
    for (const ScheduledBot& b : index.bots) bots.push_back(b.name);
    LeagueTable table;
    table.scoring = scoring ? *scoring : scoring_from_name(index.scoring).value_or(Scoring::wins);
    table.standings = compute_standings(bots, records, table.scoring);
    table.settings = index.settings;
    table.games = std::move(records);
    table.total = static_cast<int>(schedule.size());
    table.reused = static_cast<int>(table.games.size());
    table.excluded = index.excluded;
    return table;
}

}  // namespace gol::runner
