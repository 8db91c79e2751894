#include "runner/league/league.hpp"

#include "runner/text/text_width.hpp"

#include "runner/game/replay.hpp"
#include "runner/bots/bot_player.hpp"
#include "runner/bots/repository_bot.hpp"
#include "runner/sys/cpu_pin.hpp"
#include "runner/league/until_separated.hpp"
#include "runner/text/count_text.hpp"
#include "runner/text/suggestion.hpp"
#include "runner/text/terminal_text.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <mutex>
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
    std::vector<RepositoryBot> repositories;   // sorted by name
};

// A bot's path as the index keeps it: the same however the bots folder was named.
std::string index_path(const fs::path& p) { return fs::absolute(p).lexically_normal().string(); }

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
// How long an exclusion's reason may be (docs/league.md).
constexpr int kExclusionReasonColumns = 500;

std::string own_reason(const std::string& reason, const fs::path& path, const std::string& name) {
    const std::string self = terminal_line(path.string());
    for (const std::string& prefix : {self + ": ", name + ": "})
        if (reason.starts_with(prefix)) return reason.substr(prefix.size());
    if (reason.starts_with(self + "/")) return reason.substr(self.size() + 1);
    return reason;
}

// A commit as lines and pages show it.
std::string short_commit(const std::string& commit) { return commit.substr(0, 12); }

void add_repository(Roster& roster, RepositoryBot repo, std::FILE* log) {
    if (!repo.warning.empty()) {
        repo.warning = cut_text(repo.warning, kExclusionReasonColumns, "...");
        std::fprintf(log, "league: warning: %s: %s\n", repo.bot.c_str(), repo.warning.c_str());
    }
    roster.repositories.push_back(std::move(repo));
}

// A bot from a git repository (docs/league.md, "Bots from git repositories"): prepared at the
// commit its folder holds, which is then kept as its last good one; when that commit does not
// build, its last good commit plays instead, with a warning, as it does after a failed fetch.
PreparedBot prepare_repository_bot(const BotSpec& spec, const fs::path& folder, const RepositoryState& state,
                                   const BuildOptions& build, const fs::path& bots_dir, Roster& roster, std::FILE* log) {
    const std::string name = folder.filename().string();
    RepositoryBot repo{spec.name, state.url, state.branch, state.commit, ""};
    if (!state.error.empty())
        repo.warning = "its last fetch (" + state.failed + ") failed: " + state.error + "; it plays commit " +
                       short_commit(state.commit) + ", fetched " + state.fetched;
    try {
        PreparedBot prepared = prepare_bot(spec, build);
        try {
            keep_good_commit(bots_dir, name, folder, state.commit);
        } catch (const std::exception& e) {
            std::fprintf(log, "league: %s: commit %s built, but cannot be kept as its last good one: %s\n",
                         spec.name.c_str(), short_commit(state.commit).c_str(), terminal_line(e.what()).c_str());
        }
        add_repository(roster, std::move(repo), log);
        return prepared;
    } catch (const BotError& e) {
        const std::string why = "commit " + short_commit(state.commit) + " does not build (" +
                                own_reason(e.what(), folder, spec.name) + ")";
        repo.warning = (repo.warning.empty() ? "" : repo.warning + "; ") + why;
        const std::optional<GoodCommit> good = last_good_commit(bots_dir, name);
        if (!good || good->commit == state.commit) {
            repo.warning += "; no earlier commit of it built here";
            add_repository(roster, std::move(repo), log);
            throw;
        }
        BotSpec last = find_bot(good->dir.string(), bots_dir);
        last.name = spec.name;
        PreparedBot prepared = prepare_bot(last, build);
        repo.commit = good->commit;
        repo.warning += "; it plays its last good commit " + short_commit(good->commit);
        add_repository(roster, std::move(repo), log);
        return prepared;
    }
}

// A repository whose first fetch failed has no folder to play: its warning alone.
void warn_of_unfetched(const std::map<std::string, RepositoryState>& states, const std::vector<Discovered>& found,
                       Roster& roster, std::FILE* log) {
    for (const auto& [name, state] : states)
        if (std::none_of(found.begin(), found.end(), [&](const Discovered& d) { return d.path.filename() == name; }))
            add_repository(roster, {name, state.url, state.branch, "", "not fetched: " + (state.error.empty() ? "its folder is gone" : state.error)}, log);
    std::sort(roster.repositories.begin(), roster.repositories.end(),
              [](const RepositoryBot& a, const RepositoryBot& b) { return a.bot < b.bot; });
}

// `paths`: the index's record of which bot held each name (none in an index written before paths were kept).
Roster build_roster(const LeagueOptions& o, std::map<std::string, std::string> paths, std::FILE* log) {
    Roster roster;
    roster.paths = std::move(paths);
    const std::vector<Discovered> found = discover_bots(o.bots_dir);
    std::map<std::string, std::vector<fs::path>> claimants;  // by name
    for (const Discovered& d : found)
        if (d.bot) claimants[d.bot->name].push_back(d.path);
    BuildOptions build{o.cache_dir};
    build.sandbox = o.sandbox;
    build.interpreters = o.interpreters;
    const std::map<std::string, RepositoryState> states = repository_states(o.bots_dir);
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
            const auto state = states.find(d.path.filename().string());
            roster.bots.push_back(state == states.end()
                                      ? prepare_bot(*d.bot, build)
                                      : prepare_repository_bot(*d.bot, d.path, state->second, build, o.bots_dir, roster, log));
            roster.paths[d.bot->name] = index_path(d.path);
        } catch (const BotError& e) {
            roster.excluded.push_back({d.bot->name, own_reason(e.what(), d.path, d.bot->name)});
        } catch (const std::exception& e) {
            roster.excluded.push_back({d.bot->name, "cannot be prepared: " + terminal_lines(e.what())});
        }
    }
    std::sort(roster.bots.begin(), roster.bots.end(),
              [](const PreparedBot& a, const PreparedBot& b) { return a.spec.name < b.spec.name; });
    warn_of_unfetched(states, found, roster, log);
    // A reason may quote a stranger's text (a build command, a compiler's output): cut, so that
    // nothing a bot holds is copied at length into league.json, every table and the page.
    for (ExcludedBot& e : roster.excluded) e.reason = cut_text(e.reason, kExclusionReasonColumns, "...");
    for (const ExcludedBot& e : roster.excluded) std::fprintf(log, "league: excluded %s: %s\n", e.bot.c_str(), e.reason.c_str());
    return roster;
}

// What the workers share: the league's counts and the first error, which stops them all. The
// progress is told under the same lock, so its calls come one at a time, in order, each with
// the counts as they are.
class WorkerState {
public:
    WorkerState(LeagueProgress& progress, int reused, int total, int generations, int workers)
        : progress_(progress), counts_{total, reused, 0, 0}, generations_(generations),
          running_(static_cast<std::size_t>(std::max(1, workers)), kIdle) {
        progress_.league_started(counts_);
    }

    // Games added to the league (--until-separated), `stored` of them already in the store.
    void grow(int games, int stored) {
        std::lock_guard lock(mutex_);
        counts_.total += games;
        counts_.stored += stored;
        progress_.games_added(counts_);
    }

    void started(int worker) {
        std::lock_guard lock(mutex_);
        running_[static_cast<std::size_t>(worker)] = 0;
        ++counts_.running;
        progress_.game_started(counts_);
    }
    // Worker `worker`'s game has played `generation` generations.
    void generation(int worker, int generation) {
        std::lock_guard lock(mutex_);
        int& at = running_[static_cast<std::size_t>(worker)];
        done_ += generation - at;
        at = generation;
        progress_.work_done(work());
    }
    void finished(int worker, const std::array<std::string, 2>& bots, const GameResult& result, const GameWhen& when) {
        std::lock_guard lock(mutex_);
        running_[static_cast<std::size_t>(worker)] = kIdle;
        --counts_.running;
        ++counts_.stored;
        ++counts_.played;
        progress_.work_done(work());
        progress_.game_finished({bots, result, counts_, when});
    }
    void abandoned(int worker) {
        std::lock_guard lock(mutex_);
        done_ -= running_[static_cast<std::size_t>(worker)];
        running_[static_cast<std::size_t>(worker)] = kIdle;
        --counts_.running;
        progress_.work_done(work());
        progress_.game_abandoned(counts_);
    }
    // A game that could not be played (nothing of it is stored), and why; the first why is told.
    void fail(const std::array<std::string, 2>& bots, std::string why) {
        std::lock_guard lock(mutex_);
        unplayed_ += (unplayed_.empty() ? "" : ", ") + bots[0] + " vs " + bots[1];
        if (why_.empty()) why_ = std::move(why);
    }
    // Games an error left unplayed, not one of them started.
    void not_started(std::size_t games) {
        std::lock_guard lock(mutex_);
        if (!unplayed_.empty()) not_started_ += games;
    }
    std::string error() {
        std::lock_guard lock(mutex_);
        if (unplayed_.empty()) return "";
        return "could not play " + unplayed_ + " (nothing of it stored)" +
               (not_started_ ? ", nor " + count_text(static_cast<long long>(not_started_), "other game") : "") +
               ": " + why_;
    }
    // Every worker has returned: the counts as they end.
    LeagueCounts done() {
        std::lock_guard lock(mutex_);
        progress_.league_done();
        return counts_;
    }

private:
    // With mutex_ held. A game that ended early (extinction) counts the generations it played.
    LeagueWork work() const {
        long long running_left = 0;
        for (const int at : running_) running_left += at == kIdle ? 0 : generations_ - at;
        const long long unstarted = counts_.total - counts_.stored - counts_.running;
        return {done_, unstarted * generations_ + running_left};
    }

    static constexpr int kIdle = -1;

    std::mutex mutex_;
    LeagueProgress& progress_;
    LeagueCounts counts_;
    const int generations_;
    std::vector<int> running_;  // by worker: its game's generations so far, or kIdle
    long long done_ = 0;
    std::string unplayed_;  // "a vs b, c vs d"
    std::size_t not_started_ = 0;
    std::string why_;
};

// The league's bots, prepared, and its games in schedule order.
struct League {
    Roster roster;
    std::vector<ScheduledBot> names;
    std::vector<ScheduledGame> schedule;
    // The store's index as the league is prepared, or none: a new store, or one that cannot be read.
    std::optional<StoredIndex> found;
    // The games an earlier --until-separated run added (the index found), as this league schedules
    // them; none when it added none, nullopt when it paired a bot that is not here.
    std::optional<std::vector<ScheduledGame>> added = std::vector<ScheduledGame>{};
};

// Why `name` is not a bot of the league, for an option that names one.
std::string not_a_bot(const Roster& roster, const std::string& option, const std::string& name) {
    for (const ExcludedBot& e : roster.excluded)
        if (e.bot == name) return option + " " + terminal_line(name) + ": that bot is excluded: " + e.reason;
    std::string names;
    std::vector<std::string> known;
    for (const PreparedBot& b : roster.bots) {
        names += (names.empty() ? "" : ", ") + terminal_line(b.spec.name);
        known.push_back(b.spec.name);
    }
    return option + " " + terminal_line(name) + ": no bot of the league has that name" +
           terminal_line(suggestion(name, known)) + " (it has " + names + ")";
}

League prepare_league(const LeagueOptions& o, std::FILE* log) {
    std::optional<StoredIndex> found;
    try {
        found = find_index(o.results_dir);
    } catch (const StoreError& e) {
        std::fprintf(log, "league: %s; taking no bot's name as held before\n", terminal_line(e.what()).c_str());
    }
    League l{build_roster(o, found ? found->paths : std::map<std::string, std::string>{}, log), {}, {}, std::move(found)};
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
    try {
        if (l.found) l.added = schedule_added(l.names, o.settings, l.found->added);
    } catch (const std::invalid_argument&) {
        l.added.reset();
    }
    return l;
}

// The league's index with the pairs `added`. The store writes it before any game is played, so
// that runs of single games (--game) started later, and `runner table`, agree on the schedule;
// again before each round of added games.
LeagueIndex index_of(const LeagueOptions& o, const League& l, std::vector<AddedPair> added = {}) {
    return {o.settings,       std::string(name(o.scoring)), l.names, std::move(added), l.roster.excluded,
            l.roster.paths, l.roster.repositories};
}

// What the store holds of `games`, by position. A stored record counts only if it holds for the
// game scheduled under its key; any other (forged, copied from another key, from an older
// runner) is said on `log` and played again.
std::vector<std::optional<GameRecord>> stored(const ResultsStore& store, std::span<const ScheduledGame> games,
                                              std::FILE* log) {
    const auto bad = [log](const StoreError& e) { std::fprintf(log, "league: %s; playing that game again\n", e.what()); };
    return load_stored(store.dir(), games, bad);
}

// The games of `games` the store does not hold, in order.
std::vector<const ScheduledGame*> to_play(const ResultsStore& store, std::span<const ScheduledGame> games,
                                          std::FILE* log) {
    const std::vector<std::optional<GameRecord>> held = stored(store, games, log);
    std::vector<const ScheduledGame*> queue;
    for (std::size_t i = 0; i < games.size(); ++i)
        if (!held[i]) queue.push_back(&games[i]);
    return queue;
}

PlannedGame planned(const League& l, std::size_t index) {
    const ScheduledGame& g = l.schedule[index];
    return {index, g.key, g.inputs.bots, g.inputs.game_index};
}

// The limits of every move of the league's bots, in its games and when asked again.
MoveLimits league_limits(const LeagueSettings& s) {
    return move_limits(s.time_limit_ms, s.memory_limit_mb, s.cpu_limit_s, s.startup_limit_ms, s.cpu_time);
}

// Each generation told on to whoever follows the league's progress.
struct GenerationWatch : GameObserver {
    std::function<void(int)> told;
    void on_generation(int generation, std::int64_t, std::int64_t) override {
        if (told) told(generation);
    }
};

// Plays `g` and stores it, telling o.observer, and `generation` (when set) of each generation
// played. Returns the stored record. Throws GameInterrupted once `stop` is requested.
GameRecord play_and_store(const LeagueOptions& o, const League& l, const ScheduledGame& g, ResultsStore& store,
                          ProcessRegistry& registry, std::stop_token stop, std::function<void(int)> generation = {}) {
    const MoveLimits limits = league_limits(o.settings);
    const BotHost host{*o.area, o.sandbox, &registry, o.warm, bot_seed(o.settings.seed, g.key), o.interpreters};
    const auto started = std::chrono::system_clock::now();
    const auto clock = std::chrono::steady_clock::now();
    BotPlayer one(l.roster.bots[g.seats[0]], limits, host), two(l.roster.bots[g.seats[1]], limits, host);
    ReplayHeader header{g.inputs.bots, g.inputs.hashes, o.settings.config, g.inputs.seed, o.settings.time_limit_ms};
    // What the moves had, for runner check --board GAME (docs/replay.md).
    header.gol_seed = host.seed;
    header.startup_limit_ms = o.settings.startup_limit_ms;
    header.cpu_time = o.settings.cpu_time;
    std::ostringstream log_text;
    GameLog game_log(log_text, header.bots);
    GenerationWatch generations;
    generations.told = std::move(generation);
    Observers watch({&game_log, &generations});
    const PlayedGame game = play_and_record(one, two, header, watch, stop);
    GameRecord record = make_record(g, game.record.result, game.stats);
    for (int seat = 0; seat < 2; ++seat)
        for (const RepositoryBot& r : l.roster.repositories)
            if (r.bot == g.inputs.bots[seat]) record.commits[seat] = r.commit;
    record.when = GameWhen{utc_timestamp(started), std::chrono::duration_cast<std::chrono::milliseconds>(
                                                       std::chrono::steady_clock::now() - clock)};
    store.save(record, replay_text(game.record), log_text.str());
    if (o.observer) o.observer->game_stored(store, record, game);
    return record;
}

// How many boards --until-separated shows a bot again (until_separated.hpp, AskAgain): its
// first moves of a game, where a bot that plays at random shows it as soon as one that does not.
constexpr int kBoardsAskedAgain = 10;

// AskAgain for the league: the bot as its games run it (limits, sandbox, a persistent bot's one
// process), its seat's boards of `replay` from tick 0, with a seed that is not the game's. A bot
// that cannot be asked is not shown to repeat itself, and its pair is left to its games.
std::optional<RepeatCheck> ask_again(const LeagueOptions& o, const League& l, ProcessRegistry& registry,
                                     std::stop_token stop, const std::string& bot, const Replay& replay, int seat) try {
    RepeatCheck check;
    const auto prepared = std::find_if(l.roster.bots.begin(), l.roster.bots.end(),
                                       [&](const PreparedBot& b) { return b.spec.name == bot; });
    if (prepared == l.roster.bots.end()) throw std::logic_error("--until-separated asked a bot not in the league");
    if (prepared->spec.protocol == Protocol::tlv) {
        check.why = "a tlv bot is told no board";
        return check;
    }
    const MoveLimits limits = league_limits(o.settings);
    // A seed no game of the league gives (they derive from the games' keys), the same each run.
    const BotHost host{*o.area, o.sandbox, &registry, o.warm, bot_seed(o.settings.seed, "asked again: " + bot),
                       o.interpreters};
    BotPlayer player(*prepared, limits, host);
    const int ticks = std::min<int>(kBoardsAskedAgain, static_cast<int>(replay.ticks.size()));
    for (int tick = 0; tick < ticks; ++tick) {
        if (stop.stop_requested()) return std::nullopt;
        const Move& played = replay.ticks[static_cast<std::size_t>(tick)][static_cast<std::size_t>(seat - 1)];
        const MoveReport now = player.move(board_sent(replay, tick, seat));
        check.ticks = tick + 1;
        const std::string at = "at tick " + std::to_string(tick) + ", ";
        if (played.forfeit || now.forfeit) {
            check.why = at + (played.forfeit ? "its move in the game forfeited (" + std::string(name(played.forfeit->kind))
                                             : "its move forfeited (" + std::string(name(now.forfeit->kind))) + ")";
            return check;
        }
        if (static_cast<const Move&>(now) != played) {
            check.why = at + "other cells than in the game";
            return check;
        }
    }
    check.repeats = ticks > 0;
    if (ticks == 0) check.why = "the game has no move to show again";
    return check;
} catch (const std::exception& e) {
    RepeatCheck failed;
    failed.why = std::string("it could not be asked: ") + e.what();
    return failed;
}

// A run of one game needs the schedule its plan (league.json, when the store has one) was made
// from: the same index on another machine, with a bot excluded there, would be another game.
void check_plan(const LeagueOptions& o, const League& l) {
    const std::optional<StoredIndex>& plan = l.found;
    if (!plan) return;  // a league run will write one
    // Games added by --until-separated follow the schedule's in the plan; one whose bot is not
    // here makes it another schedule.
    std::vector<std::string> keys = l.added ? keys_of(l.schedule) : std::vector<std::string>{};
    for (const ScheduledGame& g : l.added.value_or(std::vector<ScheduledGame>{})) keys.push_back(g.key);
    if (keys == plan->keys) return;
    std::string why;
    for (const ScheduledBot& b : plan->bots)
        for (const ExcludedBot& e : l.roster.excluded)
            if (e.bot == b.name) why += "; " + e.bot + " is excluded here: " + e.reason;
    throw GameChoiceError(index_file(o.results_dir).string() +
                          " plans other games than this run schedules (a bot, a setting or the bots folder "
                          "differs)" + why + "; run the league with --plan again");
}

// --rerun: forgets the stored games of `which`, a game's key or a bot's name, among the schedule
// and the games added before, saying on `log` what it removed.
void forget_games(ResultsStore& store, const League& l, const std::string& which, std::FILE* log) {
    std::vector<ScheduledGame> candidates = l.schedule;
    for (const ScheduledGame& g : l.added.value_or(std::vector<ScheduledGame>{})) candidates.push_back(g);
    const bool is_key = std::any_of(candidates.begin(), candidates.end(),
                                    [&](const ScheduledGame& g) { return g.key == which; });
    const bool is_bot = std::any_of(l.names.begin(), l.names.end(),
                                    [&](const ScheduledBot& b) { return b.name == which; });
    if (!is_key && !is_bot) {
        if (which.size() == 64 && which.find_first_not_of("0123456789abcdef") == std::string::npos)
            throw GameChoiceError("--rerun " + which + ": no game of this league has that key");
        throw GameChoiceError(not_a_bot(l.roster, "--rerun", which));
    }
    int games = 0;
    std::size_t files = 0;
    for (const ScheduledGame& g : candidates) {
        if (is_key ? g.key != which : g.inputs.bots[0] != which && g.inputs.bots[1] != which) continue;
        const std::vector<fs::path> removed = store.forget(g.key);
        games += !removed.empty();
        files += removed.size();
    }
    // What --until-separated learnt of the bot goes with its games.
    bool repeat = false;
    if (is_bot)
        for (const ScheduledBot& b : l.names)
            if (b.name == which) repeat = store.forget_repeat(b.hash);
    files += repeat;
    // One line, not one a file: a bot's games are a hundred files in a big league.
    std::fprintf(log, "league: --rerun %s: forgot %s (%s in %s of %s)\n", terminal_line(which).c_str(),
                 count_text(games, "stored game").c_str(), count_text(static_cast<long long>(files), "file").c_str(),
                 repeat ? "games/, replays/, logs/, viewers/ and repeats/" : "games/, replays/, logs/ and viewers/",
                 store.dir().string().c_str());
}

// Plays the games of `queue` on up to o.jobs workers, storing each; the first error stops them
// all and is left in `state`.
void play_games(const LeagueOptions& o, const League& l, const std::vector<const ScheduledGame*>& queue,
                ResultsStore& store, ProcessRegistry& registry, std::stop_token stop, WorkerState& state) {
    std::atomic<std::size_t> next{0};
    const int workers = queue.empty() ? 0 : std::max(1, std::min<int>(o.jobs, static_cast<int>(queue.size())));
    auto work = [&](int worker) {
        pin_to_nth_cpu(worker);
        for (std::size_t i; !stop.stop_requested() && state.error().empty() && (i = next++) < queue.size();) {
            const ScheduledGame& g = *queue[i];
            state.started(worker);
            try {
                const GameRecord record = play_and_store(o, l, g, store, registry, stop,
                                                         [&](int generation) { state.generation(worker, generation); });
                state.finished(worker, g.inputs.bots, record.result, *record.when);
            } catch (const GameInterrupted&) {
                state.abandoned(worker);
            } catch (const std::exception& e) {
                state.fail(g.inputs.bots, e.what());
                state.abandoned(worker);
            }
        }
    };
    {
        std::vector<std::jthread> threads;
        for (int i = 0; i < workers; ++i) threads.emplace_back(work, i);
    }
    if (!stop.stop_requested()) state.not_started(queue.size() - std::min(next.load(), queue.size()));
}

}  // namespace

LeagueOutcome run_league(const LeagueOptions& o, ProcessRegistry& registry, std::stop_token stop, std::FILE* log) {
    const League l = prepare_league(o, log);
    const std::vector<ScheduledGame>& schedule = l.schedule;
    ResultsStore store(o.results_dir);
    store.save_index(index_of(o, l));
    if (!o.rerun.empty()) forget_games(store, l, o.rerun, log);

    const std::vector<const ScheduledGame*> queue = to_play(store, schedule, log);
    const int reused = static_cast<int>(schedule.size() - queue.size());
    std::fprintf(log, "league: %zu bots, %zu excluded, %zu games: %d stored, %zu to play; results in %s\n",
                 l.roster.bots.size(), l.roster.excluded.size(), schedule.size(), reused, queue.size(),
                 o.results_dir.string().c_str());

    LeagueProgress no_progress;
    WorkerState state(o.progress ? *o.progress : no_progress, reused, static_cast<int>(schedule.size()),
                      o.settings.config.generations, o.jobs);
    play_games(o, l, queue, store, registry, stop, state);
    if (o.until_separated > 0 && state.error().empty() && !stop.stop_requested()) {
        SeparationOptions separation{o.until_separated, o.settings.gauntlet, o.scoring, {}, {}, {}};
        for (const ScheduledBot& b : l.names) {
            separation.bots.push_back(b.name);
            separation.hashes[b.name] = b.hash;
        }
        separation.ask_again = std::bind_front(ask_again, std::cref(o), std::cref(l), std::ref(registry), stop);
        const auto play_round = [&](const std::vector<AddedPair>& added, int games) {
            const std::vector<ScheduledGame> expected = store.save_index(index_of(o, l, added));
            // Each round's games are the last of the list; stored ones (an earlier run's) are reused.
            std::vector<ScheduledGame> round(expected.end() - games, expected.end());
            const std::vector<const ScheduledGame*> more = to_play(store, round, log);
            state.grow(games, games - static_cast<int>(more.size()));
            play_games(o, l, more, store, registry, stop, state);
            const bool ran = !stop.stop_requested() && state.error().empty();
            return ran ? std::optional(std::move(round)) : std::nullopt;
        };
        play_until_separated(separation, schedule, store, play_round, log);
    }
    const LeagueCounts counts = state.done();

    if (std::string error = state.error(); !error.empty()) throw StoreError(error);

    LeagueOutcome outcome;
    outcome.interrupted = stop.stop_requested();
    outcome.table = table_from_store(o.results_dir, o.scoring, log);
    outcome.table.played = counts.played;
    outcome.table.reused = static_cast<int>(outcome.table.games.size()) - counts.played;
    outcome.stored = counts.stored;
    outcome.scheduled = counts.total;
    if (o.observer) o.observer->run_finished(store, outcome.table);
    return outcome;
}

LeaguePlan plan_league(const LeagueOptions& o, std::FILE* log) {
    const League l = prepare_league(o, log);
    ResultsStore store(o.results_dir);
    store.save_index(index_of(o, l));
    LeaguePlan plan;
    plan.total = l.schedule.size();
    const std::vector<std::optional<GameRecord>> held = stored(store, l.schedule, log);
    std::vector<GameRecord> records;
    std::vector<std::array<std::string, 2>> pairs;
    for (std::size_t i = 0; i < l.schedule.size(); ++i)
        if (held[i]) {
            records.push_back(*held[i]);
        } else {
            plan.to_play.push_back(planned(l, i));
            pairs.push_back(plan.to_play.back().bots);
        }
    plan.stored = plan.total - plan.to_play.size();
    plan.estimate = estimate_time(pairs, records, o.settings.config.generations, o.settings.time_limit_ms, o.jobs,
                                  o.settings.config.time_bank_s);
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
    if (const std::optional<GameRecord> r = stored(store, std::span(&g, 1), log).front()) {
        outcome.result = r->result;
        return outcome;
    }
    try {
        outcome.result = play_and_store(o, l, g, store, registry, stop).result;
        outcome.played = true;
    } catch (const GameInterrupted&) {
        outcome.interrupted = true;
    } catch (const std::exception& e) {
        throw StoreError("game " + g.inputs.bots[0] + " vs " + g.inputs.bots[1] + ": " + e.what());
    }
    return outcome;
}

LeagueTable table_from_store(const fs::path& dir, std::optional<Scoring> scoring, std::FILE* log) {
    const StoredIndex index = load_index(dir);
    // The games as the index's bots and settings schedule them: each record is checked against
    // its game, as a league run checks it. A gauntlet's bot is placed among the full league's
    // standings: the table counts every stored game of the full schedule, the gauntlet's and
    // those an earlier run stored, not only the games of its bot.
    LeagueIndex full = index;
    full.settings.gauntlet.clear();
    std::vector<ScheduledGame> schedule;
    try {
        schedule = expected_games(full);
    } catch (const std::invalid_argument& e) {
        throw StoreError(index_file(dir).string() + ": " + e.what());
    }
    std::vector<std::string> keys = keys_of(schedule);
    if (!index.settings.gauntlet.empty()) {
        // The gauntlet's games are some of the full league's.
        std::vector<std::string> sorted = keys, held = index.keys;
        std::sort(sorted.begin(), sorted.end());
        std::sort(held.begin(), held.end());
        if (std::includes(sorted.begin(), sorted.end(), held.begin(), held.end())) keys = index.keys;
    }
    if (keys != index.keys)
        throw StoreError(index_file(dir).string() +
                         ": its games are not the ones its bots and settings schedule; run the league again");
    std::vector<GameRecord> records = table_records(dir, schedule, log);
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
    table.repositories = index.repositories;
    return table;
}

}  // namespace gol::runner
