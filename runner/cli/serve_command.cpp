// `runner serve`: the arena for clients anywhere (docs/arena.md).
#include "runner/cli/command.hpp"
#include "runner/cli/game_options.hpp"

#include "runner/arena/arena_server.hpp"
#include "runner/league/tournament.hpp"
#include "runner/report/league_pages.hpp"
#include "runner/sys/interrupt.hpp"
#include "runner/text/terminal_text.hpp"

#include <iostream>
#include <memory>

namespace gol::runner::cli {

namespace {

// Its GivenOptions override the tournament file.
struct ServeArgs : GivenOptions {
    ArenaOptions arena;  // what the flags set directly
    std::string tournament;
    int identify_ms = 10'000;
    double leaderboard_every_s = 10;
    std::string keys;
    std::string training;
    double training_after_s = 30;
    BotLocations where;
    bool no_sandbox = false;
};

int run_serve_command(const ServeArgs& a) {
    ArenaOptions o = a.arena;
    o.identify_within = std::chrono::milliseconds(a.identify_ms);
    o.leaderboard_every = std::chrono::milliseconds(static_cast<long long>(a.leaderboard_every_s * 1000));
    // Clients run on their own machines: the runner limits neither their memory nor their CPU.
    o.settings.memory_limit_mb = 0;
    o.settings.sandboxed = false;
    if (!a.tournament.empty()) {
        const Tournament t = read_tournament(a.tournament);
        o.results_dir = t.results_dir();
        GameConfig& c = o.settings.config;
        if (!a.set("--width") && t.width) c.width = *t.width;
        if (!a.set("--height") && t.height) c.height = *t.height;
        if (!a.set("--generations") && t.generations) c.generations = *t.generations;
        if (!a.set("--time-limit") && t.time_limit_ms) o.settings.time_limit_ms = *t.time_limit_ms;
    }
    if (o.results_dir.empty()) throw UsageError("say where the arena keeps its games: --results DIR or --tournament FILE");
    if (!a.keys.empty()) o.keys = read_keys(a.keys);
    // Not live: the arena makes the leaderboard at most every --leaderboard-every, off its serving thread.
    LeaguePages pages(stderr, false);
    o.observer = &pages;
    // Only a training bot runs here, and only it needs the work area and the sandbox.
    std::optional<PlaySetup> setup;
    if (!a.training.empty()) setup.emplace(!a.no_sandbox);
    ProcessRegistry registry;
    if (setup) {
        const PreparedBot bot = load_bot(a.training, a.where, setup->sandbox());
        const MoveLimits limits = move_limits(o.settings.time_limit_ms, 1024);
        const BotHost host = setup->host(&registry, true, a.where.interpreters);
        o.training = ArenaTraining{std::string(training_prefix) + bot.spec.name, bot.hash,
                                   [bot, limits, host](std::uint64_t seed) -> std::unique_ptr<Mover> {
                                       BotHost h = host;
                                       h.seed = seed;
                                       return std::make_unique<BotPlayer>(bot, limits, h);
                                   },
                                   std::chrono::milliseconds(static_cast<long long>(a.training_after_s * 1000))};
    }
    InterruptWatcher interrupt(registry);
    Arena arena(std::move(o), stderr);
    std::cerr << "arena: listening on " << terminal_line(a.arena.bind) << " port " << arena.port() << std::endl;
    arena.serve(interrupt.token());
    std::cerr << "arena: stopped\n";
    return interrupt.signal() ? 128 + interrupt.signal() : 0;
}

}  // namespace

void add_serve(CLI::App& app, Action& run) {
    auto a = std::make_shared<ServeArgs>();
    ArenaOptions& o = a->arena;
    o.settings.config = {1024, 1024, 10000};
    CLI::App* cmd = app.add_subcommand("serve", "The 2014 arena: play clients that connect over TCP (docs/arena.md)");
    a->command = cmd;
    cmd->add_option("--port", o.port, "TCP port to listen on (0: any free one, printed)")
        ->required()
        ->check(CLI::Range(0, 65535));
    cmd->add_option("--bind", o.bind, "Address to listen on")->capture_default_str();
    CLI::Option* results = cmd->add_option("--results", o.results_dir, "Results store the arena's games go to");
    cmd->add_option("--tournament", a->tournament, "Tournament file: its results folder and settings")->excludes(results);
    add_board_options(*cmd, o.settings.config);
    // --generations still bounds the game: a pair that answers at once makes no record without end.
    cmd->add_option("--clock", o.settings.config.clock_s,
                    "Seconds of clock time a game lasts, the 2014 end (300 then); --generations still ends it first if reached")
        ->check(CLI::Range(1, 86400));
    cmd->add_option("--time-limit", o.settings.time_limit_ms, "Milliseconds a client has to answer T with M")
        ->check(CLI::Range(1, 600'000))
        ->capture_default_str();
    cmd->add_option("-j,--jobs", o.jobs, "Games at once")->check(CLI::Range(1, 256))->capture_default_str();
    cmd->add_option("--identify-time", a->identify_ms, "Milliseconds a new connection has to send its whole I")
        ->check(CLI::Range(1, 600'000))
        ->capture_default_str();
    cmd->add_option("--max-waiting", o.max_waiting,
                    "Connections identifying or waiting at once; when full, an identifying one makes room")
        ->check(CLI::Range(2, 65536))
        ->capture_default_str();
    cmd->add_option("--max-per-address", o.max_per_address, "Connections identifying or waiting at once from one address")
        ->check(CLI::Range(1, 65536))
        ->capture_default_str();
    cmd->add_option("--max-names", o.max_names, "Names the arena lists; a new name beyond is refused")
        ->check(CLI::Range(2, 1'000'000))
        ->capture_default_str();
    cmd->add_option("--names-per-address", o.names_per_address, "New names one address may bring to play in an hour")
        ->check(CLI::Range(1, 1'000'000))
        ->capture_default_str();
    cmd->add_option("--games-per-name", o.games_per_name, "Games a name may begin in an hour")
        ->check(CLI::Range(1, 1'000'000))
        ->capture_default_str();
    cmd->add_option("--leaderboard-every", a->leaderboard_every_s, "Seconds between rebuilds of the leaderboard page at most")
        ->check(CLI::Range(0.0, 86400.0))
        ->capture_default_str();
    cmd->add_option("--training", a->training, "Bot a client waiting alone plays; its games are stored apart (DIR/training)");
    cmd->add_option("--training-after", a->training_after_s, "Seconds a client waits alone before it plays the training bot")
        ->check(CLI::Range(0.0, 86400.0))
        ->capture_default_str();
    add_bot_locations(*cmd, a->where);
    cmd->add_flag("--no-sandbox", a->no_sandbox, "Run the training bot and its build without bubblewrap");
    cmd->add_option("--keys", a->keys, "File of names and their secrets: only they play (docs/arena.md)");
    cmd->callback([a, &run] { run = [a] { return run_serve_command(*a); }; });
}

}  // namespace gol::runner::cli
