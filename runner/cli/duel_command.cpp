#include "runner/cli/command.hpp"
#include "runner/text/count_text.hpp"
#include "runner/text/json_text.hpp"
#include "runner/cli/game_options.hpp"
#include "runner/bots/move_forfeit.hpp"

#include "runner/sys/atomic_file.hpp"
#include "runner/sys/cpu_pin.hpp"
#include "runner/game/off_board.hpp"
#include "runner/game/play_and_record.hpp"
#include "runner/game/traced_mover.hpp"
#include "runner/sys/interrupt.hpp"
#include "runner/report/progress.hpp"
#include "runner/text/terminal_text.hpp"
#include "runner/text/time_text.hpp"
#include "runner/report/viewer_page.hpp"

#include <nlohmann/json.hpp>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <random>

namespace gol::runner::cli {

namespace {

struct DuelOptions {
    std::string a, b;
    GameOptions game;
    BotLocations where;
    std::string seats = "fixed";
    std::optional<std::uint64_t> seed;
    bool json = false;
    bool quiet = false;
    bool verbose = false;
    std::string replay_file;
    std::string html_file;
    std::string log_file;
};

// Missing folders on the way are made when the file is written; what cannot work is a folder
// where the file should be, a path through a file, or a folder that is not writable.
void check_writable(const char* flag, const std::string& path) {
    namespace fs = std::filesystem;
    const std::string at = std::string(flag) + " " + path + ": ";
    std::error_code ec;
    if (fs::is_directory(path, ec)) throw UsageError(at + "is a folder; give the name of a file to write");
    fs::path where = fs::absolute(fs::path(path), ec).parent_path();
    while (!fs::exists(where, ec) && where.has_relative_path()) where = where.parent_path();
    if (!fs::is_directory(where, ec)) throw UsageError(at + where.string() + " is not a folder");
    if (::access(where.c_str(), W_OK) != 0) throw UsageError(at + "the folder " + where.string() + " is not writable");
}

// How many runs of forfeited turns a seat's line names; a bot that fails every tick makes one.
constexpr std::size_t kForfeitRunsNamed = 6;

// A seat's forfeited turns by their ticks (what replay --board TICK takes), and its last forfeit.
void print_forfeited_ticks(std::ostream& out, const Replay& record, const std::vector<ForfeitRun>& runs, int seat) {
    std::string ticks;
    std::size_t named = 0, more = 0;
    const ForfeitRun* last = nullptr;
    for (const ForfeitRun& run : runs) {
        if (run.seat != seat) continue;
        last = &run;
        if (named == kForfeitRunsNamed) {
            ++more;
            continue;
        }
        ticks += (named++ ? ", " : "") + ticks_text(run) + " " + std::string(name(run.forfeit.kind));
    }
    if (!last) return;
    // One forfeited turn is named by the last forfeit's line alone.
    if (named > 1 || last->first_tick != last->last_tick) {
        out << "    forfeited: " << ticks;
        if (more) out << " and " << count_text(static_cast<long long>(more), "more run");
        out << "\n";
    }
    // A run is named by its first turn's detail; the last turn's may differ (another exit status).
    const Forfeit& final = *record.ticks[static_cast<std::size_t>(last->last_tick)][static_cast<std::size_t>(seat - 1)].forfeit;
    out << "    last forfeit, at tick " << last->last_tick << ": " << name(final.kind) << ": "
        << terminal_line(final.detail) << "\n";
}

void print_summary(std::ostream& out, const std::array<PreparedBot, 2>& bots, const PlayedGame& game,
                   const GameConfig& config, std::uint64_t seed) {
    const GameResult& r = game.record.result;
    const GameStats& stats = game.stats;
    const std::vector<ForfeitRun> runs = forfeit_runs(game.record.ticks);
    const std::array<std::string, 2> names = {bots[0].spec.name, bots[1].spec.name};
    out << names[0] << " (seat 1) vs " << names[1] << " (seat 2) on " << config.width << "x" << config.height
        << ", " << config.generations << " generations, seed " << seed;
    if (config.time_bank_s > 0) out << ", a time bank of " << config.time_bank_s << " s a bot";
    out << "\n";
    if (r.verdict.winner_seat == 0)
        out << "Draw after " << count_text(r.generations, "generation") << "\n";
    else
        out << "Winner: " << names[r.verdict.winner_seat - 1] << " by " << name(r.verdict.reason) << " after "
            << count_text(r.generations, "generation") << "\n";
    for (int seat = 1; seat <= 2; ++seat) {
        const SeatStats& s = stats.seat(seat);
        out << "  " << names[seat - 1] << ": " << r.cells[seat - 1] << " cells, " << r.forfeits[seat - 1]
            << " forfeits";
        if (!s.forfeits_by_reason.empty()) out << " (" << forfeit_breakdown(s.forfeits_by_reason) << ")";
        out << ", move time median " << format_ms(median(s.move_times)) << ", max " << format_ms(maximum(s.move_times)) << "\n";
        // Its detail can quote the bot's output.
        print_forfeited_ticks(out, game.record, runs, seat);
        if (!s.crash_stderr.empty()) {
            out << "    its stderr when it crashed at tick " << s.crash_tick << " ended:\n";
            std::string lines;
            for (const std::string& line : s.crash_stderr) lines += terminal_line(line) + "\n";
            out << bot_lines(lines, "      ");
        }
        std::string said = s.last_forfeit;
        for (const std::string& line : s.crash_stderr) said += "\n" + line;
        if (const std::optional<std::string> hint = stdin_hint(bots[seat - 1].spec.protocol, said))
            out << "    hint: " << *hint << "\n";
    }
}

nlohmann::json duel_json(const std::array<std::string, 2>& names, const GameResult& r, const GameStats& stats,
                           const GameConfig& config, std::uint64_t seed) {
    using nlohmann::json;
    json j;
    j["winner"] = r.verdict.winner_seat == 0 ? json(nullptr) : json(names[r.verdict.winner_seat - 1]);
    j["reason"] = name(r.verdict.reason);
    j["generations"] = r.generations;
    for (int seat = 1; seat <= 2; ++seat) {
        const std::string& n = names[seat - 1];
        const SeatStats& s = stats.seat(seat);
        j["cells"][n] = r.cells[seat - 1];
        j["forfeits"][n] = r.forfeits[seat - 1];
        j["seats"][n] = seat;
        j["forfeit_reasons"][n] = s.forfeits_by_reason;
        j["move_ms"][n] = {{"median", median(s.move_times).count() / 1000.0},
                           {"max", maximum(s.move_times).count() / 1000.0}};
    }
    j["board"] = {{"width", config.width}, {"height", config.height}};
    j["generations_limit"] = config.generations;
    if (config.time_bank_s > 0) j["time_bank_s"] = config.time_bank_s;
    j["seed"] = seed;
    return j;
}

int run_duel(const DuelOptions& o) {
    // Checked before the bots are built and the game is played rather than found out after it.
    for (const auto& [flag, path] : {std::pair{"--replay", &o.replay_file}, std::pair{"--html", &o.html_file},
                                     std::pair{"--log", &o.log_file}})
        if (!path->empty()) check_writable(flag, *path);

    PlaySetup setup(o.game.sandboxed());
    std::array<PreparedBot, 2> bots = {load_bot(o.a, o.where, setup.sandbox()),
                                       load_bot(o.b, o.where, setup.sandbox())};
    if (bots[0].spec.name == bots[1].spec.name) bots[1].spec.name += "#2";

    const std::uint64_t seed = o.seed ? *o.seed : std::random_device{}();
    if (o.seats == "random" && (std::mt19937_64(seed)() & 1)) std::swap(bots[0], bots[1]);
    const std::array<std::string, 2> names = {bots[0].spec.name, bots[1].spec.name};

    std::ofstream log;
    if (!o.log_file.empty()) {
        log.open(o.log_file);
        if (!log) throw UsageError("--log " + o.log_file + ": cannot be written");
    }

    ProcessRegistry registry;
    InterruptWatcher interrupt(registry);
    pin_to_current_cpu();
    BotHost host = setup.host(&registry, !o.game.cold, o.where.interpreters);
    host.seed = seed;  // GOL_SEED: the duel's seed, which its replay records
    BotPlayer one(bots[0], o.game.limits(), host), two(bots[1], o.game.limits(), host);
    // With -v each seat's player is traced on stderr.
    std::array<std::optional<TracedMover>, 2> traced;
    const auto seat = [&](BotPlayer& player, std::size_t i) -> Mover& {
        return o.verbose ? traced[i].emplace(player, names[i], std::cerr) : static_cast<Mover&>(player);
    };
    std::array<OffBoardWatch, 2> watched = {OffBoardWatch(seat(one, 0)), OffBoardWatch(seat(two, 1))};
    ReplayHeader header{names, {bots[0].hash, bots[1].hash}, o.game.config, seed, o.game.time_limit_ms};
    header.gol_seed = host.seed;
    header.startup_limit_ms = o.game.startup_limit_ms;
    header.cpu_time = o.game.time_mode == "cpu";
    std::vector<GameObserver*> observers;
    std::unique_ptr<GameLog> game_log;
    if (log.is_open()) observers.push_back((game_log = std::make_unique<GameLog>(log, names)).get());
    std::optional<GameProgress> progress;
    // The trace's lines would land inside the live line: one or the other.
    if (!o.quiet && !o.verbose) observers.push_back(&progress.emplace(stderr, names, o.game.config.generations));
    Observers also(observers);

    PlayedGame game;
    try {
        game = play_and_record(watched[0], watched[1], header, also, interrupt.token());
    } catch (const GameInterrupted&) {
        progress.reset();
        std::cerr << "duel: interrupted\n";
        return 128 + interrupt.signal();
    }
    progress.reset();
    const bool sandboxed = setup.sandbox() != nullptr;
    if (o.json) {
        nlohmann::json j = duel_json(names, game.record.result, game.stats, o.game.config, seed);
        for (int seat = 1; seat <= 2; ++seat) j["off_board_moves"][names[seat - 1]] = watched[seat - 1].moves();
        j["sandboxed"] = sandboxed;
        std::cout << json_text(j) << std::endl;
    } else {
        print_summary(std::cout, bots, game, o.game.config, seed);
        // A seat whose replies put most of their cells off the board: valid moves that place nothing.
        for (int seat = 1; seat <= 2; ++seat)
            if (const OffBoardWatch& w = watched[seat - 1]; w.moves())
                std::cout << "  warning: " << names[seat - 1] << " put most of a move's cells off the board in "
                          << w.moves() << " of its moves; the first, at tick " << w.first_tick() << ": "
                          << off_board_text(*w.first(), o.game.config.height, o.game.config.width) << "\n";
        std::cout << (sandboxed ? "Bots ran in the sandbox, as in a league (--no-sandbox to leave it)\n"
                                : "Bots ran without the sandbox (--no-sandbox; a league runs them inside it)\n");
        if (sandboxed) std::cout << "Limits: " << setup.sandbox()->limits_line() << "\n";
    }

    // The result is printed first: a file that cannot be written loses nothing else.
    int status = 0;
    auto write = [&](const char* flag, const std::string& path, auto contents) {
        if (path.empty()) return;
        try {
            write_file_atomically(path, contents());
        } catch (const std::exception& e) {
            std::cerr << "duel: " << flag << " " << path << ": " << e.what() << "\n";
            status = 1;
        }
    };
    write("--replay", o.replay_file, [&] { return replay_text(game.record); });
    write("--html", o.html_file, [&] { return viewer_page(game.record, game.counts.counts); });
    return status;
}

}  // namespace

void add_duel(CLI::App& app, Action& run) {
    auto o = std::make_shared<DuelOptions>();
    CLI::App* cmd = app.add_subcommand("duel", "Play one game between two bots");
    cmd->add_option("A", o->a, "First bot: a path, or a name under --bots; takes seat 1")->required();
    cmd->add_option("B", o->b, "Second bot")->required();
    add_game_options(*cmd, o->game);
    add_time_bank_option(*cmd, o->game.config);
    add_bot_locations(*cmd, o->where);
    cmd->add_option("--seats", o->seats, "fixed: A is seat 1; random: --seed decides")
        ->check(CLI::IsMember({"fixed", "random"}))
        ->capture_default_str();
    cmd->add_option("--seed", o->seed, "Seed for the seat draw (printed, so a game can be repeated)");
    cmd->add_flag("--json", o->json, "Print one JSON object with the result instead of a summary");
    cmd->add_flag("--quiet", o->quiet, "No progress line");
    cmd->add_flag("-v,--verbose", o->verbose,
                  "Trace each board sent and each reply on stderr, one line each (in place of the progress line)");
    cmd->add_option("--replay", o->replay_file, "Write the game's replay to this file");
    cmd->add_option("--html", o->html_file, "Write a viewer page that plays the game (one self-contained HTML file)");
    cmd->add_option("--log", o->log_file, "Write forfeits and the bots' stderr to this file");
    cmd->callback([o, &run] { run = [o] { return run_duel(*o); }; });
}

}  // namespace gol::runner::cli
