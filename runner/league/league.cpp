#include "runner/league/league.hpp"

#include "runner/game/replay.hpp"
#include "runner/sys/atomic_file.hpp"
#include "runner/bots/bot_player.hpp"
#include "runner/sys/cpu_pin.hpp"
#include "runner/text/terminal_text.hpp"

#include <algorithm>
#include <atomic>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>
#include <variant>

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
    if (holder != claimants.end())
        return "named \"" + name + "\" like " + terminal_line(holder->string()) +
               ", which has played under that name in these results and keeps it; rename this one (or set \"name\" "
               "in its bot.json)";
    std::string others;
    for (const fs::path& p : claimants)
        if (p != bot.path) others += (others.empty() ? "" : ", ") + terminal_line(p.string());
    return "named \"" + name + "\" like " + others +
           ", and none of them has played under that name in these results, so none plays; rename all but one "
           "(or set \"name\" in its bot.json)";
}

// A reason as the bot's line shows it, after the bot's name: discovery's and builds' messages
// start with the bot's path or name, which the line would otherwise repeat. A file inside the
// bot keeps its path within the bot ("bot.json: ...").
std::string own_reason(const std::string& reason, const fs::path& path, const std::string& name) {
    const std::string self = terminal_line(path.string());
    for (const std::string& prefix : {self + ": ", name + ": "})
        if (reason.starts_with(prefix)) return reason.substr(prefix.size());
    if (reason.starts_with(self + "/")) return reason.substr(self.size() + 1);
    return reason;
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
            roster.excluded.push_back({file_name, own_reason(d.error, d.path, file_name)});
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
            roster.excluded.push_back({d.bot->name, own_reason(e.what(), d.path, d.bot->name)});
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

    // Games added to the league (--until-separated), `stored` of them already in the store.
    void grow(int games, int stored) {
        std::lock_guard lock(mutex_);
        total_ += games;
        reused_ += stored;
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
    int reused_;
    int total_;
    int played_ = 0;
    std::string error_;
};

// The league's bots, prepared, and its games in schedule order.
struct League {
    Roster roster;
    std::vector<ScheduledBot> names;
    std::vector<ScheduledGame> schedule;
};

// Why `name` is not a bot of the league, for an option that names one.
std::string not_a_bot(const Roster& roster, const std::string& option, const std::string& name) {
    for (const ExcludedBot& e : roster.excluded)
        if (e.bot == name) return option + " " + terminal_line(name) + ": that bot is excluded: " + e.reason;
    std::string names;
    for (const PreparedBot& b : roster.bots) names += (names.empty() ? "" : ", ") + terminal_line(b.spec.name);
    return option + " " + terminal_line(name) + ": no bot of the league has that name (it has " + names + ")";
}

League prepare_league(const LeagueOptions& o, std::FILE* log) {
    League l{build_roster(o, log), {}, {}};
    // Checked before the results store is made: a league of one bot or none plays no game. Why
    // each other bot was excluded is on `log` just above.
    if (const std::size_t usable = l.roster.bots.size(); usable < 2) {
        std::string message = "a league needs at least two usable bots, and " + terminal_line(o.bots_dir.string()) +
                              " has " + std::to_string(usable);
        if (usable == 1) message += " (" + l.roster.bots[0].spec.name + ")";
        std::string excluded;
        for (const ExcludedBot& e : l.roster.excluded) excluded += (excluded.empty() ? "" : ", ") + e.bot;
        if (!excluded.empty()) message += "; excluded, for the reasons above: " + excluded;
        throw GameChoiceError(message);
    }
    for (const PreparedBot& b : l.roster.bots) l.names.push_back({b.spec.name, b.hash});
    const std::string& gauntlet = o.settings.gauntlet;
    if (!gauntlet.empty() && std::none_of(l.names.begin(), l.names.end(), [&](const ScheduledBot& b) {
            return b.name == gauntlet;
        }))
        throw GameChoiceError(not_a_bot(l.roster, "--gauntlet", gauntlet));
    l.schedule = schedule_league(l.names, o.settings);
    return l;
}

// Written before any game is played, so that runs of single games (--game) started later, and
// `runner table`, agree on the schedule; again before each round of added games.
void save_index(ResultsStore& store, const LeagueOptions& o, const League& l, const std::vector<AddedPair>& added = {}) {
    LeagueIndex index{o.settings, std::string(name(o.scoring)), l.names, {}, added, l.roster.excluded, l.roster.paths};
    for (const ScheduledGame& g : l.schedule) index.keys.push_back(g.key);
    for (const ScheduledGame& g : schedule_added(l.names, o.settings, added)) index.keys.push_back(g.key);
    store.save_index(index);
}

// A stored record counts only if it holds for the game scheduled under its key; any other
// (forged, copied from another key, from an older runner) is said on `log` and played again.
bool is_stored(const ResultsStore& store, const ScheduledGame& g, std::FILE* log) {
    try {
        return store.load(g).has_value();
    } catch (const StoreError& e) {
        std::fprintf(log, "league: %s; playing that game again\n", e.what());
        return false;
    }
}

PlannedGame planned(const League& l, std::size_t index) {
    const ScheduledGame& g = l.schedule[index];
    return {index, g.key, g.inputs.bots, g.inputs.game_index};
}

// Plays `g` and stores it, telling `observer`. Throws GameInterrupted once `stop` is requested.
GameResult play_and_store(const LeagueOptions& o, const League& l, const ScheduledGame& g, ResultsStore& store,
                          LeagueObserver& observer, ProcessRegistry& registry, std::stop_token stop) {
    const MoveLimits limits =
        move_limits(o.settings.time_limit_ms, o.settings.memory_limit_mb, o.settings.cpu_limit_s);
    const BotHost host{*o.area, o.sandbox, &registry, o.warm, bot_seed(o.settings.seed, g.key)};
    BotPlayer one(l.roster.bots[g.seats[0]], limits, host), two(l.roster.bots[g.seats[1]], limits, host);
    const ReplayHeader header{g.inputs.bots, g.inputs.hashes, o.settings.config, g.inputs.seed,
                              o.settings.time_limit_ms};
    std::ostringstream log_text;
    GameLog game_log(log_text, header.bots);
    const PlayedGame game = play_and_record(one, two, header, game_log, stop);
    const GameRecord record = make_record(g, game.record.result, game.stats);
    store.save(record, replay_text(game.record), log_text.str());
    observer.game_stored(store, record, game);
    return game.record.result;
}

// A run of one game needs the schedule its plan (league.json, when the store has one) was made
// from: the same index on another machine, with a bot excluded there, would be another game.
void check_plan(const LeagueOptions& o, const League& l) {
    const fs::path& results_dir = o.results_dir;
    if (!fs::exists(results_dir / "league.json")) return;
    LeagueIndex plan;
    try {
        plan = load_index(results_dir);
    } catch (const StoreError&) {
        return;  // build_roster has said so; a league run will write a new one
    }
    std::vector<std::string> keys;
    for (const ScheduledGame& g : l.schedule) keys.push_back(g.key);
    try {
        // Games added by --until-separated follow the schedule's in the plan.
        for (const ScheduledGame& g : schedule_added(l.names, o.settings, plan.added)) keys.push_back(g.key);
    } catch (const std::invalid_argument&) {
        keys.clear();  // an added game's bot is not here: another schedule
    }
    if (keys == plan.keys) return;
    std::string why;
    for (const ScheduledBot& b : plan.bots)
        for (const ExcludedBot& e : l.roster.excluded)
            if (e.bot == b.name) why += "; " + e.bot + " is excluded here: " + e.reason;
    throw GameChoiceError((results_dir / "league.json").string() +
                          " plans other games than this run schedules (a bot, a setting or the bots folder "
                          "differs)" + why + "; run the league with --plan again");
}

// The games an earlier --until-separated run added (its league.json), as this league schedules
// them; none when it added none or paired a bot that is not here.
std::vector<ScheduledGame> previously_added(const LeagueOptions& o, const League& l) {
    if (!fs::exists(o.results_dir / "league.json")) return {};
    try {
        return schedule_added(l.names, o.settings, load_index(o.results_dir).added);
    } catch (const StoreError&) {
        return {};  // build_roster has said so
    } catch (const std::invalid_argument&) {
        return {};
    }
}

// --rerun: forgets the stored games of `which`, a game's key or a bot's name, among the schedule
// and the games added before (`added`), saying on `log` what it removed.
void forget_games(ResultsStore& store, const League& l, const std::vector<ScheduledGame>& added,
                  const std::string& which, std::FILE* log) {
    std::vector<const ScheduledGame*> candidates;
    for (const std::vector<ScheduledGame>* list : {&l.schedule, &added})
        for (const ScheduledGame& g : *list) candidates.push_back(&g);
    const bool is_key = std::any_of(candidates.begin(), candidates.end(),
                                    [&](const ScheduledGame* g) { return g->key == which; });
    const bool is_bot = std::any_of(l.names.begin(), l.names.end(),
                                    [&](const ScheduledBot& b) { return b.name == which; });
    if (!is_key && !is_bot) {
        if (which.size() == 64 && which.find_first_not_of("0123456789abcdef") == std::string::npos)
            throw GameChoiceError("--rerun " + which + ": no game of this league has that key");
        throw GameChoiceError(not_a_bot(l.roster, "--rerun", which));
    }
    int games = 0;
    std::size_t files = 0;
    for (const ScheduledGame* g : candidates) {
        if (is_key ? g->key != which : g->inputs.bots[0] != which && g->inputs.bots[1] != which) continue;
        const std::vector<fs::path> removed = store.forget(g->key);
        games += !removed.empty();
        files += removed.size();
        for (const fs::path& f : removed) std::fprintf(log, "league: --rerun: removed %s\n", f.string().c_str());
    }
    std::fprintf(log, "league: --rerun %s: forgot %d stored games (%zu files: records, replays, logs, viewer pages)\n",
                 terminal_line(which).c_str(), games, files);
}

// Plays the games of `queue` on up to o.jobs workers, storing each; the first error stops them
// all and is left in `state`.
void play_games(const LeagueOptions& o, const League& l, const std::vector<const ScheduledGame*>& queue,
                ResultsStore& store, LeagueObserver& observer, ProcessRegistry& registry, std::stop_token stop,
                WorkerState& state) {
    std::atomic<std::size_t> next{0};
    const int workers = queue.empty() ? 0 : std::max(1, std::min<int>(o.jobs, static_cast<int>(queue.size())));
    auto work = [&](int worker) {
        pin_to_nth_cpu(worker);
        for (std::size_t i; !stop.stop_requested() && state.error().empty() && (i = next++) < queue.size();) {
            const ScheduledGame& g = *queue[i];
            state.started();
            try {
                const GameResult result = play_and_store(o, l, g, store, observer, registry, stop);
                state.finished(g.inputs.bots, result);
            } catch (const GameInterrupted&) {
                state.abandoned();
            } catch (const std::exception& e) {
                state.fail("game " + g.inputs.bots[0] + " vs " + g.inputs.bots[1] + ": " + e.what());
                state.abandoned();
            }
        }
    };
    std::vector<std::jthread> threads;
    for (int i = 0; i < workers; ++i) threads.emplace_back(work, i);
}

// A pair in name order: the table names it upper bot first, and may swap it from one round to the next.
AddedPair by_name(const AddedPair& p) { return p[0] < p[1] ? p : AddedPair{p[1], p[0]}; }

// Whether the pair's stored games repeat themselves: at least two in each seat order, and those
// with the same seats identical move for move (their stored replays). A replay that cannot be
// read leaves it unknown, so the pair is not called deterministic.
bool repeats_itself(const ResultsStore& store, const std::vector<GameRecord>& games, const AddedPair& pair) {
    struct SeatOrder {
        std::vector<std::array<Move, 2>> ticks;  // its first game's
        int games = 0;
    };
    std::map<std::string, SeatOrder> orders;  // by the bot in seat 1
    for (const GameRecord& r : games) {
        if (by_name(r.bots) != by_name(pair)) continue;
        std::ifstream in(store.replay_path(r.key));
        Replay replay;
        try {
            replay = read_replay(in);
        } catch (const std::exception&) {
            return false;
        }
        SeatOrder& order = orders[r.bots[0]];
        if (order.games++ == 0) order.ticks = std::move(replay.ticks);
        else if (replay.ticks != order.ticks) return false;
    }
    return orders.size() == 2 && std::all_of(orders.begin(), orders.end(), [](const auto& o) { return o.second.games >= 2; });
}

std::string pair_name(const AddedPair& p) { return terminal_line(p[0]) + " vs " + terminal_line(p[1]); }

// --until-separated (docs/league.md, "More games where they inform"): rounds of two more games, one in each
// seat order, for every pair of bots adjacent in rating order whose order is uncertain, re-fitted after
// each round, until none is or the budget is spent. What it decides is said on `log`.
void separate(const LeagueOptions& o, const League& l, ResultsStore& store, LeagueObserver& observer,
              ProcessRegistry& registry, std::stop_token stop, WorkerState& state, std::FILE* log) {
    std::vector<AddedPair> added;
    std::set<AddedPair> deterministic;  // by_name
    int budget = o.until_separated;
    const std::string& gauntlet = o.settings.gauntlet;
    std::string end;
    for (int round = 1;; ++round) {
        const LeagueTable table = table_from_store(o.results_dir, o.scoring, log);
        std::vector<std::pair<AddedPair, double>> uncertain;  // with the upper's LOS over the lower
        // Neighbours in rating order, not the scoring's: a bot given more games collects more
        // wins, and would climb a table of wins past a stronger bot it was never compared with.
        for (const RatedNeighbours& n : rating_neighbours(table)) {
            const AddedPair pair{n.upper, n.lower};
            // A gauntlet plays only its bot's pairs.
            if (!gauntlet.empty() && pair[0] != gauntlet && pair[1] != gauntlet) continue;
            if (!n.los || *n.los <= 0.05 || *n.los >= 0.95) continue;
            if (deterministic.count(by_name(pair))) continue;
            if (repeats_itself(store, table.games, pair)) {
                deterministic.insert(by_name(pair));
                std::fprintf(log,
                             "league: --until-separated: %s is deterministic: its games with the same seats were "
                             "identical move for move; no more games for it\n",
                             pair_name(pair).c_str());
                continue;
            }
            uncertain.emplace_back(pair, *n.los);
        }
        if (uncertain.empty()) {
            end = "every adjacent pair is separated or deterministic";
            break;
        }
        if (budget < 2) {
            end = "budget spent; still uncertain: ";
            for (std::size_t i = 0; i < uncertain.size(); ++i)
                end += (i ? ", " : "") + pair_name(uncertain[i].first) + " (LOS " + format_los(uncertain[i].second) + ")";
            break;
        }
        uncertain.resize(std::min<std::size_t>(uncertain.size(), static_cast<std::size_t>(budget / 2)));
        std::string pairs;
        for (const auto& [pair, los] : uncertain) {
            added.push_back(pair);
            pairs += (pairs.empty() ? "" : ", ") + pair_name(pair) + " (LOS " + format_los(los) + ")";
        }
        const int games = 2 * static_cast<int>(uncertain.size());
        budget -= games;
        std::fprintf(log, "league: --until-separated: round %d: 2 more games each for %s; %d of %d left\n", round,
                     pairs.c_str(), budget, o.until_separated);
        save_index(store, o, l, added);
        // Each round's games are the last of the list; stored ones (an earlier run's) are reused.
        const std::vector<ScheduledGame> more = schedule_added(l.names, o.settings, added);
        std::vector<const ScheduledGame*> queue;
        for (auto g = more.end() - games; g != more.end(); ++g)
            if (!is_stored(store, *g, log)) queue.push_back(&*g);
        state.grow(games, games - static_cast<int>(queue.size()));
        play_games(o, l, queue, store, observer, registry, stop, state);
        if (stop.stop_requested() || !state.error().empty()) return;
    }
    std::map<AddedPair, int> per_pair;  // in name order
    for (const AddedPair& p : added) per_pair[by_name(p)] += 2;
    std::string counts;
    for (const auto& [pair, games] : per_pair) counts += (counts.empty() ? "" : ", ") + pair_name(pair) + " " + std::to_string(games);
    std::fprintf(log, "league: --until-separated: added %zu games%s%s%s; %s\n", 2 * added.size(),
                 counts.empty() ? "" : " (", counts.c_str(), counts.empty() ? "" : ")", end.c_str());
}

}  // namespace

LeagueOutcome run_league(const LeagueOptions& o, ProcessRegistry& registry, std::stop_token stop, std::FILE* log) {
    const League l = prepare_league(o, log);
    const std::vector<ScheduledGame>& schedule = l.schedule;
    ResultsStore store(o.results_dir);
    const std::vector<ScheduledGame> added_before = previously_added(o, l);
    save_index(store, o, l);
    if (!o.rerun.empty()) forget_games(store, l, added_before, o.rerun, log);

    std::vector<const ScheduledGame*> queue;
    for (const ScheduledGame& g : schedule)
        if (!is_stored(store, g, log)) queue.push_back(&g);
    const int reused = static_cast<int>(schedule.size() - queue.size());
    std::fprintf(log, "league: %zu bots, %zu excluded, %zu games: %d stored, %zu to play; results in %s\n",
                 l.roster.bots.size(), l.roster.excluded.size(), schedule.size(), reused, queue.size(),
                 o.results_dir.string().c_str());

    LeagueObserver none;
    LeagueObserver& observer = o.observer ? *o.observer : none;
    LeagueProgress no_progress;
    WorkerState state(o.progress ? *o.progress : no_progress, reused, static_cast<int>(schedule.size()));
    play_games(o, l, queue, store, observer, registry, stop, state);
    if (o.until_separated > 0 && state.error().empty() && !stop.stop_requested())
        separate(o, l, store, observer, registry, stop, state, log);
    state.done();

    if (std::string error = state.error(); !error.empty()) throw StoreError(error);

    LeagueOutcome outcome;
    outcome.interrupted = stop.stop_requested();
    outcome.table = table_from_store(o.results_dir, o.scoring, log);
    outcome.table.played = state.played();
    outcome.table.reused = static_cast<int>(outcome.table.games.size()) - state.played();
    outcome.stored = static_cast<int>(outcome.table.games.size());
    observer.run_finished(store, outcome.table);
    return outcome;
}

LeaguePlan plan_league(const LeagueOptions& o, std::FILE* log) {
    const League l = prepare_league(o, log);
    ResultsStore store(o.results_dir);
    save_index(store, o, l);
    LeaguePlan plan;
    plan.total = l.schedule.size();
    for (std::size_t i = 0; i < l.schedule.size(); ++i)
        if (!is_stored(store, l.schedule[i], log)) plan.to_play.push_back(planned(l, i));
    plan.stored = plan.total - plan.to_play.size();
    return plan;
}

OneGameOutcome play_league_game(const LeagueOptions& o, const GameChoice& which, ProcessRegistry& registry,
                                std::stop_token stop, std::FILE* log) {
    const League l = prepare_league(o, log);
    check_plan(o, l);
    std::size_t index = 0;
    if (const std::size_t* i = std::get_if<std::size_t>(&which)) {
        if (*i >= l.schedule.size())
            throw GameChoiceError("--game " + std::to_string(*i) + ": out of range; the league has " +
                                  std::to_string(l.schedule.size()) + " games, indexed from 0");
        index = *i;
    } else {
        const std::string& key = std::get<std::string>(which);
        const auto found = std::find_if(l.schedule.begin(), l.schedule.end(),
                                        [&](const ScheduledGame& g) { return g.key == key; });
        if (found == l.schedule.end())
            throw GameChoiceError("--game " + key + ": no game of this league has that key");
        index = static_cast<std::size_t>(found - l.schedule.begin());
    }
    ResultsStore store(o.results_dir, StoreUse::one_game);
    const ScheduledGame& g = l.schedule[index];
    OneGameOutcome outcome;
    outcome.game = planned(l, index);
    outcome.total = l.schedule.size();
    try {
        if (std::optional<GameRecord> r = store.load(g)) {
            outcome.result = r->result;
            return outcome;
        }
    } catch (const StoreError& e) {
        std::fprintf(log, "league: %s; playing that game again\n", e.what());
    }
    LeagueObserver none;
    try {
        outcome.result = play_and_store(o, l, g, store, o.observer ? *o.observer : none, registry, stop);
        outcome.played = true;
    } catch (const GameInterrupted&) {
        outcome.interrupted = true;
    } catch (const std::exception& e) {
        throw StoreError("game " + g.inputs.bots[0] + " vs " + g.inputs.bots[1] + ": " + e.what());
    }
    return outcome;
}

LeagueTable table_from_store(const fs::path& dir, std::optional<Scoring> scoring, std::FILE* log) {
    LeagueIndex index = load_index(dir);
    // The games as the index's bots and settings schedule them: each record is checked against
    // its game, as a league run checks it.
    std::vector<ScheduledGame> schedule = schedule_league(index.bots, index.settings);
    try {
        for (ScheduledGame& g : schedule_added(index.bots, index.settings, index.added)) schedule.push_back(std::move(g));
    } catch (const std::invalid_argument& e) {
        throw StoreError((dir / "league.json").string() + ": " + e.what());
    }
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
