#include "runner/cli/command.hpp"
#include "runner/cli/game_options.hpp"

#include "runner/bots/bot_check.hpp"
#include "runner/bots/move_forfeit.hpp"
#include "runner/game/protocol.hpp"
#include "runner/game/replay.hpp"
#include "runner/game/traced_mover.hpp"
#include "runner/sandbox/long_argument.hpp"
#include "runner/text/json_text.hpp"
#include "runner/text/terminal_text.hpp"
#include "runner/text/text_width.hpp"
#include "runner/text/time_text.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <string_view>

namespace gol::runner::cli {

namespace {

// Its GivenOptions: a limit given on the command line, which a replay's does not replace.
struct CheckOptions : GivenOptions {
    std::vector<std::string> bots;  // paths, names under --bots, or folders of bots
    GameOptions game;
    BotLocations where;
    int runs = 5;
    bool verbose = false;
    std::string board_file;  // --board: only this board, as a replay says a seat was sent it
    // With a replay as --board: the move to play again, by its tick and seat.
    std::optional<int> tick;
    std::optional<int> seat;
    std::optional<std::uint64_t> seed;  // GOL_SEED (--seed); a replay's own by default
};

// The exit status of a bot that fails the check: apart from bad input (2) and the runner's own
// failure (1), so that a script can tell them apart.
constexpr int kBotFails = 3;

// How much of a failing bot's stderr is shown: its last lines, where an error is named.
constexpr std::size_t kStderrLines = 8;
constexpr int kStderrLineColumns = 203;  // 200 and the "..." of a cut

// What a bot wrote, as one line at most `columns` wide before its control characters are
// escaped: 160 columns and the "..." that marks a cut.
std::string shorten(std::string_view s, int columns = 163) {
    while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.remove_suffix(1);
    return terminal_line(cut_text(s, columns, "..."));
}

// A reply on one line: its cells as JSON, shortened, or its forfeit.
std::string reply_text(const Move& m) {
    if (!m.ok()) return "FORFEIT " + std::string(name(m.forfeit->kind)) + ": " + terminal_line(m.forfeit->detail);
    return shorten(json_text(m));  // the replay's words for a move (replay.hpp)
}

// Prints the last kStderrLines of a bot's `lines`, each escaped, cut and marked as the bot's after
// `indent` (bot_lines, as a game's log marks them): none reads as a line of the check's own.
template <typename Line>
void print_last_lines(const std::vector<Line>& lines, std::string_view indent) {
    const std::size_t from = lines.size() - std::min(lines.size(), kStderrLines);
    std::string text;
    for (std::size_t i = from; i < lines.size(); ++i) text += shorten(lines[i], kStderrLineColumns) + "\n";
    std::cout << bot_lines(text, indent);
}

// A failing move's stderr: its last lines, where a traceback or a compiler names the error.
void print_stderr(const std::string& err) {
    const std::vector<std::string_view> lines = lines_of(err);
    if (lines.empty()) return;
    std::cout << "      stderr";
    if (lines.size() > kStderrLines) std::cout << ", its last " << kStderrLines << " of " << lines.size() << " lines";
    std::cout << ":\n";
    print_last_lines(lines, "        ");
}

// How the bot's moves run, for the "runs:" line.
std::string how_it_runs(const BotPlayer& player) {
    switch (run_mode(player)) {
        case RunMode::warm:
            return "warm (forked from a " +
                   terminal_line(std::filesystem::path(player.bot().command[0]).filename().string()) +
                   " started once per game; --cold runs it the plain way)";
        case RunMode::persistent: return "one process for the whole game (the persistent protocol)";
        case RunMode::tlv:
            return "one process for the whole game, connected over TCP (the tlv protocol); it keeps its own board, "
                   "so it is told none of the check's boards: each move is a T, answered on the board it keeps";
        case RunMode::cold_by_manifest: return "a new process per move (\"warm\": false in its bot.json)";
        case RunMode::per_move: break;
    }
    return "a new process per move";
}

// Prints each move as the check makes it; the same stderr every run would repeat its lines for nothing.
std::function<void(const CheckedMove&)> move_printer(Protocol protocol, int runs) {
    return [protocol, runs, last_err = std::string(), last_off_board = std::string()](const CheckedMove& c) mutable {
        const MoveReport& m = c.report;
        // Its runs' ticks count on from the first, as a game's do, unless it is played once or at one tick.
        const bool one_tick = c.board.same_tick || c.board.dense || runs == 1;
        if (c.run == 0)
            std::cout << "  " << c.board.what << " ("
                      << c.board.board.population(Player::one) + c.board.board.population(Player::two)
                      << " live cells, " << c.json_bytes / 1024 << " KiB of JSON), seat " << c.seat << ", "
                      << (one_tick ? "tick " : "from tick ") << c.tick << ":\n";
        std::cout << "    " << format_ms(m.elapsed) << "  ";
        if (m.ok()) {
            std::cout << "valid, " << m.cells.size() << " cells (" << c.applied << " would be placed)";
            if (c.run == 0) std::cout << ": " << reply_text(m);
        } else {
            std::cout << reply_text(m);
        }
        std::cout << "\n";
        if (c.off_board) {
            const std::string off = off_board_text(*c.off_board, c.board.board.height(), c.board.board.width());
            std::cout << (c.off_board->mostly() ? "      warning: " : "      note: ")
                      << (off == last_off_board ? "as above" : off) << "\n";
            last_off_board = off;
        }
        if (m.ok()) return;
        if (!m.out.empty()) std::cout << "      stdout: " << shorten(m.out) << "\n";
        if (!m.err.empty() && m.err == last_err) std::cout << "      stderr: as above\n";
        else print_stderr(m.err);
        if (m.err != last_err)
            if (const std::optional<std::string> hint = stdin_hint(protocol, m.err)) std::cout << "      hint: " << *hint << "\n";
        last_err = m.err;
    };
}

// What a move that failed in the sandbox tells of the sandbox, from its own stderr.
void print_sandbox_refusals(const std::vector<std::string>& refused) {
    if (refused.empty()) {
        std::cout << "  its stderr names nothing the sandbox refused; if it passes with --no-sandbox, the sandbox is "
                     "what makes it fail, and a league runs it in the sandbox (docs/sandbox.md)\n";
        return;
    }
    std::cout << "  what the sandbox refused it, as its stderr says:\n";
    print_last_lines(refused, "    ");
    std::cout << "  fix: in the sandbox a bot may write only under the folder named in $GOL_SCRATCH (also $HOME; "
                 "kept for the whole game), has no network, and sees the rest of the file system read-only "
                 "(docs/sandbox.md)\n";
}

// Why moves are slow, when they are, and what helps.
void print_time_advice(const CheckReport& r, const PreparedBot& bot) {
    if (r.unflushed)
        std::cout << "  warning: " << r.unflushed << " moves got no reply line within the time limit: did it flush "
                  << "stdout after each line? A reply left in its buffer never reaches the runner (Python: "
                     "print(..., flush=True); C: fflush(stdout); docs/protocol.md)\n";
    if (!r.slow) return;
    const SlowMoves& s = *r.slow;
    std::cout << "  warning: a move on the " << s.slowest.what << " takes " << format_ms(s.slowest.median)
              << " (median), over " << kSlowMove.count() << " ms: ";
    switch (s.cause) {
        case SlowMoves::Cause::persistent_work:
            std::cout << "the time is the bot's own work (its process starts once per game, not per move)\n";
            break;
        case SlowMoves::Cause::warm_work:
            std::cout << "the time is the bot's own work (it runs warm: its interpreter does not start per move)\n";
            break;
        case SlowMoves::Cause::start_up:
            std::cout << "even the " << s.fastest.what << " takes " << format_ms(s.fastest.median) << ", so most of it is "
                      << "probably starting " << terminal_line(bot.command[0])
                      << "; the stdin protocol does not help, the persistent protocol (docs/protocol.md) does\n";
            break;
        case SlowMoves::Cause::own_work:
            std::cout << "the " << s.fastest.what << " takes " << format_ms(s.fastest.median)
                      << ", so starting the bot is quick and the time went into the bot's own work\n";
            break;
        case SlowMoves::Cause::both:
            std::cout << "about " << format_ms(s.fastest.median) << " of it is starting the bot (the " << s.fastest.what
                      << " takes that long), the rest the bot's own work\n";
            break;
    }
}

// Whether each board's warm reply is the cold one.
void print_warm_against_cold(const std::vector<WarmAgainstCold>& compared) {
    std::cout << "  warm against cold, on the boards above (two cold replies and one warm each):\n";
    for (const WarmAgainstCold& w : compared) {
        std::cout << "    " << w.what << ", seat " << w.seat << ": ";
        switch (w.outcome) {
            case WarmAgainstCold::Outcome::varies:
                std::cout << "not compared: its two cold replies differ, so the bot uses randomness (or state it "
                             "keeps between moves)\n";
                break;
            case WarmAgainstCold::Outcome::same: std::cout << "the same reply warm and cold\n"; break;
            case WarmAgainstCold::Outcome::different:
                std::cout << "DIFFERENT\n      warm: " << reply_text(w.warm) << "\n      cold: " << reply_text(w.cold)
                          << "\n";
                break;
        }
    }
}

// The largest --board file read: a 4096x4096 board's busiest JSON is about this size.
constexpr std::uintmax_t kMaxBoardFile = std::uintmax_t{256} << 20;

// --board's move: the board a seat was sent and, when the file is a game's replay, what the game
// gave that move (its limits and GOL_SEED).
struct BoardMove {
    SentBoard sent;
    std::string json;  // as the runner encodes it
    std::optional<ReplayHeader> game;
    bool respelled = false;  // a board file that is the same board written differently
};

// --board FILE: the JSON a replay says a seat was sent (runner replay GAME --board TICK --seat
// N), or the replay itself with --tick and --seat.
BoardMove board_move(const CheckOptions& o) {
    namespace fs = std::filesystem;
    const std::string& file = o.board_file;
    std::error_code ec;
    if (!fs::is_regular_file(file, ec)) throw UsageError("--board " + file + ": not a file");
    if (fs::file_size(file, ec) > kMaxBoardFile)
        throw UsageError("--board " + file + ": over " + std::to_string(kMaxBoardFile >> 20) + " MiB, larger than any board");
    std::ifstream in(file, std::ios::binary);
    std::string text(std::istreambuf_iterator<char>(in), {});
    if (!in && !in.eof()) throw UsageError("--board " + file + ": cannot be read");
    // A replay's first line is its header, which names its format; a board's JSON never holds that.
    if (text.substr(0, text.find('\n')).find("\"gol-replay\"") != std::string::npos) {
        if (!o.tick) throw UsageError("--board " + file + " is a game's replay: --tick TICK names the move to play (and --seat N its seat, 1 by default)");
        std::istringstream replay_text(std::move(text));
        try {
            const Replay replay = read_replay(replay_text);
            std::string json = board_sent(replay, *o.tick, o.seat.value_or(1));
            return BoardMove{decode_board(json), json, replay.header, false};
        } catch (const ReplayError& e) {
            throw UsageError("--board " + file + " --tick " + std::to_string(*o.tick) + ": " + e.what());
        }
    }
    if (o.tick || o.seat)
        throw UsageError("--tick and --seat pick a move of a replay; the board file " + file + " names its own tick and seat");
    SentBoard sent = [&] {
        try {
            return decode_board(text);
        } catch (const RecordError& e) {
            throw UsageError("--board " + file + ": " + e.what() +
                             " (the file is what runner replay GAME --board TICK --seat N prints, or the replay itself "
                             "with --tick)");
        }
    }();
    std::string json;
    encode_board(sent.board, sent.bot_id, sent.tick_id, json);
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.pop_back();
    const bool respelled = text != json;
    return BoardMove{std::move(sent), std::move(json), std::nullopt, respelled};
}

// The one board of --board, played as the seat and at the tick it was sent with, on its own size
// (set in `config`).
std::vector<CheckBoard> board_to_check(const CheckOptions& o, const BoardMove& move, GameConfig& config,
                                       std::string& about) {
    config.height = move.sent.board.height();
    config.width = move.sent.board.width();
    about = "  board:    " + terminal_line(o.board_file) + ", " + std::to_string(config.width) + "x" +
            std::to_string(config.height) + ", as seat " + std::to_string(move.sent.bot_id) + " at tick " +
            std::to_string(move.sent.tick_id) + "\n";
    if (move.respelled)
        about += "  note:     the file is not byte for byte what the runner sends; the bot gets the runner's encoding "
                 "of the same board\n";
    // The game's one move, every run.
    return {{.what = "board from --board", .board = move.sent.board, .over_argument_limit = too_long_for_argv(move.json),
             .seat = move.sent.bot_id, .tick = static_cast<int>(move.sent.tick_id), .same_tick = true}};
}

// The move of --board as the game gave it: a replay's time limit, start-up allowance, time mode
// and GOL_SEED where the command line sets none, and no start-up allowance after tick 0, where a
// game gives none. A persistent or tlv bot's process starts at the check's first run, as at a
// game's start or a restart, which have the allowance: that run keeps it.
std::string as_in_the_game(const CheckOptions& o, const BoardMove& move, Protocol protocol, GameOptions& game,
                           std::optional<std::uint64_t>& seed) {
    if (move.game) {
        if (!o.set("--time-limit")) game.time_limit_ms = move.game->time_limit_ms;
        if (!o.set("--startup-limit") && move.game->startup_limit_ms) game.startup_limit_ms = *move.game->startup_limit_ms;
        if (!o.set("--time-mode") && move.game->cpu_time) game.time_mode = *move.game->cpu_time ? "cpu" : "wall";
        if (!seed) seed = move.game->gol_seed;
    }
    const bool starts_here = protocol == Protocol::persistent || protocol == Protocol::tlv;
    std::string line = "  move:     " + std::to_string(game.time_limit_ms) + " ms (" +
                       (game.time_mode == "cpu" ? "CPU time" : "wall clock") +
                       (move.game && !o.set("--time-limit") ? ", the game's" : "") + "), ";
    if (move.sent.tick_id == 0 || game.startup_limit_ms == 0)
        line += game.startup_limit_ms == 0 ? "no start-up allowance"
                                           : "with the start-up allowance of a first move (" +
                                                 std::to_string(game.startup_limit_ms) + " ms)";
    else if (starts_here)
        line += "the start-up allowance on the first run only, where its process starts (a game gives it at a "
                "start or a restart)";
    else {
        line += "no start-up allowance (a game gives it at tick 0 only)";
        game.startup_limit_ms = 0;
    }
    line += ", ";
    if (seed) line += "GOL_SEED " + std::to_string(*seed) + (o.seed ? "" : " (the game's)");
    else line += move.game ? "no GOL_SEED (the replay does not record the game's; --seed N sets one)"
                           : "no GOL_SEED (a board file does not carry the game's: --board GAME --tick T reads it, "
                             "or --seed N)";
    line += "\n";
    // A replay keeps no move's time, so what was left of a bank at this tick is not known.
    if (move.game && move.game->config.time_bank_s > 0)
        line += "  note:     the game had a time bank of " + std::to_string(move.game->config.time_bank_s) +
                " s a bot, and a move got at most what was left of it; the replay does not record that, so "
                "this move gets the whole limit above\n";
    return line;
}

// One bot's line of the summary table that a check of several bots ends with.
struct CheckRow {
    std::string bot;
    std::string protocol;
    std::string verdict;  // OK, OK (slow when dense), NOT OK or NOT USABLE, with its figure
    std::string moves, median, max, dense;
    bool passes = false;
};

// What the late-game board showed: its longest move, or from which density its moves time out.
std::string dense_text(const CheckReport::LateGame& late) {
    if (late.timeouts == 0) return "in time (" + format_ms(late.max) + ")";
    return "times out from " + std::to_string(late.slow_from_percent) + "%";
}

// The late-game board's line, and the warning when the bot's moves time out on dense boards.
void print_late_game(const CheckReport::LateGame& late, int time_limit_ms) {
    std::cout << "  on the late-game board (" << late.live_cells << " live cells, " << late.json_bytes / 1024
              << " KiB of JSON, as a late game of block builders has): longest move " << format_ms(late.max);
    if (late.timeouts > 0) std::cout << ", " << late.timeouts << " over the time limit";
    else if (late.max * 5 > std::chrono::microseconds(std::chrono::milliseconds(time_limit_ms)) * 4)
        std::cout << ", over 80% of the time limit";
    std::cout << "\n";
    if (late.timeouts == 0) return;
    std::cout << "  warning: slow on dense boards: its moves time out from about " << late.slow_from_percent
              << "% of the board alive (" << late.slow_from_cells << " live cells";
    if (late.in_time_percent) std::cout << "; in time at " << late.in_time_percent << "%";
    else std::cout << ", the sparsest tried";
    std::cout << "), denser than most games reach; a game whose board grows that dense forfeits its turns there. "
                 "Slowness, not a broken protocol: the check passes on it\n";
}

// Checks one bot and prints its report; its row for the summary.
CheckRow check_one(const CheckOptions& o, const std::string& bot_name, PlaySetup& setup,
                   const std::optional<BoardMove>& move) {
    GameConfig config = o.game.config;
    GameOptions game = o.game;
    std::string about_board;
    const std::vector<CheckBoard> boards = move ? board_to_check(o, *move, config, about_board) : check_boards(config);
    auto t0 = std::chrono::steady_clock::now();
    PreparedBot bot = load_bot(bot_name, o.where, setup.sandbox());
    auto built = std::chrono::steady_clock::now() - t0;
    std::optional<std::uint64_t> seed = o.seed;
    if (move) about_board += as_in_the_game(o, *move, bot.spec.protocol, game, seed);
    BotHost host = setup.host(nullptr, !o.game.cold, o.where.interpreters);
    host.seed = seed;
    std::cout << bot.spec.name << ": " << bot.spec.path.string() << "\n";
    BotPlayer player(bot, game.limits(), host);
    // As its moves run it: a java run's JVM flags included.
    std::cout << "  command:  ";
    for (const std::string& a : player.command()) std::cout << terminal_line(a) << ' ';
    std::cout << "\n  protocol: " << name(bot.spec.protocol) << "\n";
    std::cout << "  ready in  " << format_ms(std::chrono::duration_cast<std::chrono::microseconds>(built))
              << " (build included when one ran)\n";

    std::cout << "  sandbox:  "
              << (setup.sandbox() ? "yes, as a league runs it (--no-sandbox to leave it)"
                                  : "no (--no-sandbox; a league runs bots in the sandbox)")
              << "\n";
    if (setup.sandbox()) std::cout << "  limits:   " << setup.sandbox()->limits_line() << "\n";
    std::cout << "  runs:     " << how_it_runs(player) << "\n" << about_board;
    std::optional<TracedMover> traced;
    if (o.verbose) traced.emplace(player, bot.spec.name, std::cerr);
    Mover& mover = o.verbose ? static_cast<Mover&>(*traced) : player;
    const CheckedBot checked{mover, player, run_mode(player), [&]() -> std::unique_ptr<Mover> {
                                 BotHost cold = host;
                                 cold.warm = false;
                                 return std::make_unique<BotPlayer>(bot, game.limits(), cold);
                             }};
    const CheckReport r = check_bot(checked, boards, CheckSettings{o.runs, config.generations, setup.sandbox() != nullptr},
                                    move_printer(bot.spec.protocol, o.runs));
    if (r.stopped)
        std::cout << "  stopped: the same failure " << kSameFailureStop
                  << " times in a row; its other moves would say no more\n";

    // --board plays the game's own board, not the samples: a small one says nothing of big ones.
    if (r.big_board == BigBoard::not_tried) {
        if (!move && !r.stopped)
            std::cout << "  a board over 128 KiB: not tried, a " << config.width << "x" << config.height
                      << " board cannot hold one\n";
    } else if (r.big_board == BigBoard::delivered)
        std::cout << "  a board over 128 KiB: the bot receives it whole\n";
    else
        std::cout << "  a board over 128 KiB: NOT delivered (see the forfeits above); a busy 1000x1000 game has such "
                     "boards on most turns\n";
    if (r.sandbox_refusals) print_sandbox_refusals(*r.sandbox_refusals);
    std::cout << "  move time: median " << format_ms(r.median) << ", max " << format_ms(r.max) << "\n";
    if (r.late_game) print_late_game(*r.late_game, game.time_limit_ms);
    // One board says nothing of a whole game's time, nor does a check stopped early.
    if (!move && !r.stopped)
        std::cout << "  a " << config.generations << "-generation game takes about " << format_duration(r.per_game)
                  << " of this bot's time\n";
    print_time_advice(r, bot);
    if (!r.warm_against_cold.empty()) print_warm_against_cold(r.warm_against_cold);
    const int differ = r.warm_differs();
    if (differ)
        std::cout << "  warning: the bot answers " << differ << " of " << r.warm_against_cold.size()
                  << " boards differently run warm than run cold; run it with --cold, or give it a bot.json with "
                     "\"warm\": false (docs/protocol.md)\n";
    if (r.off_board)
        std::cout << "  warning: " << r.off_board << " of " << r.moves
                  << " replies put most of their cells off the board, where nothing is placed; the first: "
                  << off_board_text(*r.first_off_board, config.height, config.width) << "\n";
    if (r.partly_off_board)
        std::cout << "  note: " << r.partly_off_board << " of " << r.moves
                  << " replies put some of their cells off the board, where nothing is placed; the first: "
                  << off_board_text(*r.first_partly_off_board, config.height, config.width) << "\n";
    CheckRow row{bot.spec.name, std::string(name(bot.spec.protocol)), "OK", std::to_string(r.moves),
                 format_ms(r.median), format_ms(r.max), r.late_game ? dense_text(*r.late_game) : "-", r.passes()};
    if (r.invalid) {
        std::cout << "  NOT OK: " << r.invalid << " of " << r.moves << " moves would be forfeited\n";
        row.verdict = "NOT OK: " + std::to_string(r.invalid) + " forfeited";
    }
    if (differ) {
        std::cout << "  NOT OK: its warm replies differ from its cold ones\n";
        if (!r.invalid) row.verdict = "NOT OK: warm differs";
    }
    if (!r.passes()) return row;
    const bool slow_when_dense = r.late_game && r.late_game->timeouts > 0;
    std::cout << "  OK: every reply was valid"
              << (slow_when_dense ? ", but for the timeouts on dense boards (a warning, above)" : "") << "\n";
    if (slow_when_dense) row.verdict = "OK, slow when dense";
    return row;
}

// The bots the command line names: a folder that is not itself a bot stands for its bots
// (runner league's way); an entry of it that cannot be a bot keeps its reason (`error`).
std::vector<Discovered> bots_named(const std::vector<std::string>& args, bool& folder) {
    namespace fs = std::filesystem;
    std::vector<Discovered> named;
    for (const std::string& arg : args) {
        std::error_code ec;
        if (!fs::is_directory(arg, ec) || fs::exists(fs::path(arg) / "bot.json", ec)) {
            named.push_back({arg, std::nullopt, ""});
            continue;
        }
        folder = true;
        for (Discovered& d : discover_bots(arg)) named.push_back(std::move(d));
    }
    return named;
}

// The table a check of several bots ends with; whether every bot passes.
bool print_summary(const std::vector<CheckRow>& rows) {
    std::vector<std::vector<std::string>> cells = {
        {"bot", "protocol", "verdict", "moves", "median", "max", "late-game board"}};
    for (const CheckRow& r : rows)
        cells.push_back({terminal_line(r.bot), r.protocol, r.verdict, r.moves, r.median, r.max, r.dense});
    std::vector<int> widths(cells[0].size(), 0);
    for (const auto& line : cells)
        for (std::size_t i = 0; i < line.size(); ++i) widths[i] = std::max(widths[i], text_width(line[i]));
    std::cout << "\nsummary:\n";
    for (const auto& line : cells) {
        std::string text = " ";
        for (std::size_t i = 0; i < line.size(); ++i)
            text += " " + line[i] + std::string(static_cast<std::size_t>(widths[i] - text_width(line[i])), ' ');
        while (text.back() == ' ') text.pop_back();
        std::cout << text << "\n";
    }
    const auto failed = std::count_if(rows.begin(), rows.end(), [](const CheckRow& r) { return !r.passes; });
    std::cout << "  " << rows.size() - static_cast<std::size_t>(failed) << " of " << rows.size() << " bots pass\n";
    return failed == 0;
}

int run_check(const CheckOptions& o) {
    bool folder = false;
    const std::vector<Discovered> named = bots_named(o.bots, folder);
    if (named.empty()) throw UsageError("no bots in " + o.bots.front());
    PlaySetup setup(o.game.sandboxed());
    // Read before any bot is built: a wrong --board is bad input for every bot, refused first.
    std::optional<BoardMove> move;
    if (!o.board_file.empty()) move = board_move(o);
    // One bot named alone: its report, and a bot that cannot be used is bad input (exit 2).
    if (named.size() == 1 && !folder) return check_one(o, named[0].path.string(), setup, move).passes ? 0 : kBotFails;
    std::vector<CheckRow> rows;
    for (const Discovered& bot : named) {
        if (!rows.empty()) std::cout << "\n";
        try {
            if (!bot.error.empty()) throw BotError(bot.error);
            rows.push_back(check_one(o, bot.path.string(), setup, move));
        } catch (const std::exception& e) {
            // Bad input for this bot only (BotError, UsageError): the others are still checked.
            if (!dynamic_cast<const BotError*>(&e) && !dynamic_cast<const UsageError*>(&e)) throw;
            std::cout << terminal_line(bot.path.string()) << ": NOT USABLE: " << terminal_line(e.what()) << "\n";
            rows.push_back({bot.path.filename().string(), "-", "NOT USABLE", "-", "-", "-", "-", false});
        }
    }
    return print_summary(rows) ? 0 : kBotFails;
}

}  // namespace

void add_check(CLI::App& app, Action& run) {
    auto o = std::make_shared<CheckOptions>();
    CLI::App* cmd = app.add_subcommand("check", "Build a bot, try it on sample boards and report");
    cmd->footer("Exit status: 0 when every reply was valid (timeouts on boards denser than most games reach are "
                "a warning), 3 when a bot fails the check (a move would be forfeited, or its warm replies differ "
                "from its cold ones; of several bots, one that cannot be used too), 2 for bad input, 1 when the "
                "runner itself failed.");
    cmd->add_option("BOT", o->bots,
                    "A path, or a name under --bots; several, or a folder of bots, are each checked in turn and "
                    "summed up in a table")
        ->required();
    add_game_options(*cmd, o->game);
    add_bot_locations(*cmd, o->where);
    cmd->add_option("--runs", o->runs, "Moves per board and seat")->check(CLI::Range(1, 1000))->capture_default_str();
    cmd->add_flag("-v,--verbose", o->verbose, "Trace each board sent and each reply on stderr, one line each");
    cmd->add_option("--board", o->board_file,
                    "Play only this board, as the seat and tick it names: the JSON runner replay GAME --board TICK "
                    "--seat N prints, or the replay GAME itself with --tick, to reproduce a move of a game with the "
                    "game's limits (no start-up allowance after tick 0) and GOL_SEED");
    CLI::Option* tick = cmd->add_option("--tick", o->tick, "With a replay as --board: the tick of the move to play")
                            ->check(CLI::NonNegativeNumber)
                            ->needs("--board");
    cmd->add_option("--seat", o->seat, "With a replay as --board: the seat of the move to play (1 or 2; 1 by default)")
        ->check(CLI::Range(1, 2))
        ->needs(tick);
    cmd->add_option("--seed", o->seed, "GOL_SEED for the bot's moves (by default none, or the game's with a replay as --board)");
    o->command = cmd;
    cmd->callback([o, &run] { run = [o] { return run_check(*o); }; });
}

}  // namespace gol::runner::cli
