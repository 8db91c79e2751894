#include "runner/cli/command.hpp"
#include "runner/cli/game_options.hpp"

#include "runner/game/game_stats.hpp"
#include "runner/game/protocol.hpp"
#include "runner/game/traced_mover.hpp"
#include "runner/sys/long_argument.hpp"
#include "runner/text/terminal_text.hpp"
#include "runner/text/text_width.hpp"
#include "runner/text/time_text.hpp"

#include <algorithm>
#include <array>
#include <iostream>
#include <iterator>
#include <memory>
#include <optional>
#include <random>
#include <string_view>

namespace gol::runner::cli {

namespace {

struct CheckOptions {
    std::string bot;
    GameOptions game;
    BotLocations where;
    int runs = 5;
    bool no_sandbox = false;  // --sandbox is the default, still accepted so old command lines work
    bool verbose = false;
};

constexpr auto kSlowMove = std::chrono::milliseconds(100);
// How much of a failing bot's stderr is shown: its last lines, where an error is named.
constexpr std::size_t kStderrLines = 8;
constexpr int kStderrLineColumns = 203;  // 200 and the "..." of a cut

// A board with both players spread over it: a soup, stepped so it looks like mid-game, small
// enough in JSON to fit one command-line argument.
Board busy_board(const GameConfig& config) {
    Board board(config.height, config.width);
    std::mt19937_64 rng(20160712);
    const int h = std::min(config.height, 90), w = std::min(config.width, 90);
    std::vector<Cell> one, two;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            auto r = rng() % 100;
            if (r < 20) one.push_back({config.height / 2 - h / 2 + y, x});
            else if (r < 40) two.push_back({config.height / 2 - h / 2 + y, config.width - w + x});
        }
    board.place(Player::one, one);
    board.place(Player::two, two);
    for (int i = 0; i < 4; ++i) board.step();
    return board;
}

// A board whose JSON is over Linux's 128 KiB argument limit (about 30000 live cells, as a busy
// 1000x1000 game has), or nullopt when the configured board cannot hold one.
std::optional<Board> big_board(const GameConfig& config) {
    Board board(config.height, config.width);
    std::mt19937_64 rng(20160713);
    const std::uint64_t area = static_cast<std::uint64_t>(config.height) * static_cast<std::uint64_t>(config.width);
    std::vector<Cell> one, two;
    for (int y = 0; y < config.height; ++y)
        for (int x = 0; x < config.width; ++x)
            if (rng() % area < 30000) (rng() % 2 ? one : two).push_back({y, x});
    board.place(Player::one, one);
    board.place(Player::two, two);
    std::string json;
    encode_board(board, 1, 0, json);
    if (!too_long_for_argv(json)) return std::nullopt;
    return board;
}

// What a bot wrote, as one line at most `columns` wide before its control characters are
// escaped: 160 columns and the "..." that marks a cut.
std::string shorten(std::string_view s, int columns = 163) {
    while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.remove_suffix(1);
    return terminal_line(cut_text(s, columns, "..."));
}

// A reply on one line: its cells as JSON, shortened, or its forfeit.
std::string reply_text(const Move& m) {
    if (!m.ok()) return "FORFEIT " + std::string(name(m.forfeit->kind)) + ": " + terminal_line(m.forfeit->detail);
    std::string reply = "[";
    for (const Cell& cell : m.cells)
        reply += (reply.size() > 1 ? ",[" : "[") + std::to_string(cell.y) + "," + std::to_string(cell.x) + "]";
    return shorten(reply + "]");
}

// A bot's stderr as lines, without the empty ones at its end.
std::vector<std::string_view> lines_of(std::string_view text) {
    std::vector<std::string_view> lines;
    while (!text.empty()) {
        const std::size_t end = std::min(text.find('\n'), text.size());
        lines.push_back(text.substr(0, end));
        text.remove_prefix(std::min(end + 1, text.size()));
    }
    while (!lines.empty() && lines.back().find_first_not_of(" \t\r") == std::string_view::npos) lines.pop_back();
    return lines;
}

// Prints the last kStderrLines of `lines`, indented, each escaped and cut.
void print_last_lines(const std::vector<std::string_view>& lines, const char* indent) {
    const std::size_t from = lines.size() - std::min(lines.size(), kStderrLines);
    for (std::size_t i = from; i < lines.size(); ++i)
        std::cout << indent << shorten(lines[i], kStderrLineColumns) << "\n";
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

// A board the check plays, by the name it prints.
struct CheckBoard {
    const char* what;
    const Board& board;
    bool over_argument_limit = false;
};

// How the bot's moves run, for the "runs:" line.
std::string how_it_runs(const BotPlayer& player) {
    const PreparedBot& bot = player.bot();
    if (player.warm())
        return "warm (forked from a " + terminal_line(std::filesystem::path(bot.command[0]).filename().string()) +
               " started once per game; --cold runs it the plain way)";
    if (bot.spec.protocol == Protocol::persistent) return "one process for the whole game (the persistent protocol)";
    if (!bot.spec.warm) return "a new process per move (\"warm\": false in its bot.json)";
    return "a new process per move";
}

// Answers each board twice run cold and once run warm, and prints whether the warm reply is the
// cold one. Two cold replies that differ mean the replies vary by themselves, and that board is
// not compared. Returns how many boards' warm replies differ.
int compare_warm_and_cold(BotPlayer& warm, BotPlayer& cold, const std::vector<CheckBoard>& boards) {
    std::cout << "  warm against cold, on the boards above (two cold replies and one warm each):\n";
    int differ = 0;
    for (const CheckBoard& b : boards)
        for (int seat = 1; seat <= 2; ++seat) {
            // Only the replies are compared, not the time or stderr they came with.
            const Move first = cold.move(b.board, seat, 0), second = cold.move(b.board, seat, 0);
            const Move warm_reply = warm.move(b.board, seat, 0);
            std::cout << "    " << b.what << ", seat " << seat << ": ";
            if (first != second) {
                std::cout << "not compared: its two cold replies differ, so the bot uses randomness (or state it "
                             "keeps between moves)\n";
            } else if (warm_reply == first) {
                std::cout << "the same reply warm and cold\n";
            } else {
                ++differ;
                std::cout << "DIFFERENT\n      warm: " << reply_text(warm_reply) << "\n      cold: " << reply_text(first)
                          << "\n";
            }
        }
    return differ;
}

// Which of a bot's stderr lines say what the sandbox refused it: a file it may not write or
// that is not there, a permission, the network.
bool names_a_refusal(std::string_view line) {
    static constexpr std::array<std::string_view, 12> signs = {
        "Read-only file system", "Permission denied", "No such file", "Operation not permitted",
        "Network is unreachable", "Temporary failure in name resolution", "Name or service not known",
        "EROFS", "EACCES", "ENOENT", "EPERM", "ENETUNREACH"};
    return std::any_of(signs.begin(), signs.end(), [&](std::string_view s) { return line.find(s) != line.npos; });
}

// What a move that failed in the sandbox tells of the sandbox, from its own stderr. The board is
// never played again outside the sandbox: that would run a stranger's code as the runner's user
// (a bot that fails whenever it is not root would get root there). --no-sandbox is the way to
// compare, and the user asks for it.
void explain_sandbox_failure(const MoveReport& boxed) {
    const std::vector<std::string_view> lines = lines_of(boxed.err);
    std::vector<std::string_view> refused;
    std::copy_if(lines.begin(), lines.end(), std::back_inserter(refused), names_a_refusal);
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

// A board's median move time, moves that timed out left out: they say nothing of how long a reply takes.
struct BoardTime {
    const char* what;
    std::chrono::microseconds median;
};

// Why moves are slow, when they are, and what helps. A persistent bot starts once per game, so
// its time is never start-up; for a bot started per move, the board it answers fastest (the
// empty one, usually) is about what starting it costs.
void advise_on_time(const BotPlayer& player, const std::vector<BoardTime>& boards, int timeouts) {
    const PreparedBot& bot = player.bot();
    if (bot.spec.protocol == Protocol::persistent && timeouts)
        std::cout << "  warning: " << timeouts << " moves got no reply line within the time limit: did it flush "
                  << "stdout after each line? A reply left in its buffer never reaches the runner (Python: "
                     "print(..., flush=True); C: fflush(stdout); docs/protocol.md)\n";
    if (boards.empty()) return;
    const auto [fastest, slowest] = std::minmax_element(
        boards.begin(), boards.end(), [](const BoardTime& a, const BoardTime& b) { return a.median < b.median; });
    if (slowest->median <= kSlowMove) return;
    std::cout << "  warning: a move on the " << slowest->what << " takes " << format_ms(slowest->median)
              << " (median), over " << kSlowMove.count() << " ms: ";
    if (bot.spec.protocol == Protocol::persistent)
        std::cout << "the time is the bot's own work (its process starts once per game, not per move)\n";
    else if (player.warm())
        std::cout << "the time is the bot's own work (it runs warm: its interpreter does not start per move)\n";
    else if (fastest->median > kSlowMove)
        std::cout << "even the " << fastest->what << " takes " << format_ms(fastest->median) << ", so most of it is "
                  << "probably starting " << terminal_line(bot.command[0])
                  << "; the stdin protocol does not help, the persistent protocol (docs/protocol.md) does\n";
    else if (slowest->median >= 2 * fastest->median)
        std::cout << "the " << fastest->what << " takes " << format_ms(fastest->median)
                  << ", so starting the bot is quick and the time went into the bot's own work\n";
    else
        std::cout << "about " << format_ms(fastest->median) << " of it is starting the bot (the " << fastest->what
                  << " takes that long), the rest the bot's own work\n";
}

int run_check(const CheckOptions& o) {
    if (o.game.sandbox && o.no_sandbox) throw UsageError("--sandbox and --no-sandbox contradict each other");
    PlaySetup setup(!o.no_sandbox);
    auto t0 = std::chrono::steady_clock::now();
    PreparedBot bot = load_bot(o.bot, o.where, setup.sandbox());
    auto built = std::chrono::steady_clock::now() - t0;
    std::cout << bot.spec.name << ": " << bot.spec.path.string() << "\n";
    std::cout << "  command:  ";
    for (const std::string& a : bot.command) std::cout << terminal_line(a) << ' ';
    std::cout << "\n  protocol: " << name(bot.spec.protocol) << "\n";
    std::cout << "  ready in  " << format_ms(std::chrono::duration_cast<std::chrono::microseconds>(built))
              << " (build included when one ran)\n";

    std::cout << "  sandbox:  "
              << (setup.sandbox() ? "yes, as a league runs it (--no-sandbox to leave it)"
                                  : "no (--no-sandbox; a league runs bots in the sandbox)")
              << "\n";
    BotPlayer player(bot, o.game.limits(), setup.host(nullptr, !o.game.cold));
    std::cout << "  runs:     " << how_it_runs(player) << "\n";
    std::optional<TracedMover> traced;
    if (o.verbose) traced.emplace(player, bot.spec.name, std::cerr);
    Mover& mover = o.verbose ? static_cast<Mover&>(*traced) : player;
    const Board empty(o.game.config.height, o.game.config.width);
    const Board busy = busy_board(o.game.config);
    const std::optional<Board> big = big_board(o.game.config);
    std::vector<std::chrono::microseconds> times;
    std::vector<BoardTime> board_times;
    std::string json, last_err;
    int invalid = 0, timeouts = 0;
    std::optional<bool> big_delivered;  // set when the big board was tried
    // The first move that failed in the sandbox, explained once all are done.
    std::optional<MoveReport> sandbox_failure;
    std::vector<CheckBoard> cases = {CheckBoard{"empty board", empty}, CheckBoard{"busy board", busy}};
    if (big) cases.push_back(CheckBoard{"big board", *big, true});
    for (const CheckBoard& c : cases) {
        std::vector<std::chrono::microseconds> in_time;
        for (int seat = 1; seat <= 2; ++seat) {
            encode_board(c.board, seat, 0, json);
            std::cout << "  " << c.what << " (" << c.board.population(Player::one) + c.board.population(Player::two)
                      << " live cells, " << json.size() / 1024 << " KiB of JSON), seat " << seat << ":\n";
            for (int run = 0; run < o.runs; ++run) {
                MoveReport m = mover.move(c.board, seat, run);
                if (c.over_argument_limit)
                    big_delivered = big_delivered.value_or(true) && (m.ok() || m.forfeit->kind != ForfeitKind::board_too_large);
                times.push_back(m.elapsed);
                if (m.ok() || m.forfeit->kind != ForfeitKind::timeout) in_time.push_back(m.elapsed);
                else ++timeouts;
                std::cout << "    " << format_ms(m.elapsed) << "  ";
                if (m.ok()) {
                    Board placed = c.board;
                    const int applied = placed.place(seat == 1 ? Player::one : Player::two, m.cells);
                    std::cout << "valid, " << m.cells.size() << " cells (" << applied << " would be placed)";
                    if (run == 0) std::cout << ": " << reply_text(m);
                } else {
                    ++invalid;
                    std::cout << reply_text(m);
                }
                std::cout << "\n";
                if (m.ok()) continue;
                if (!m.out.empty()) std::cout << "      stdout: " << shorten(m.out) << "\n";
                // The same stderr every run would repeat its lines for nothing.
                if (!m.err.empty() && m.err == last_err) std::cout << "      stderr: as above\n";
                else print_stderr(m.err);
                last_err = m.err;
                if (setup.sandbox() && !sandbox_failure) sandbox_failure = std::move(m);
            }
        }
        if (!in_time.empty()) board_times.push_back(BoardTime{c.what, median(std::move(in_time))});
    }
    if (!big_delivered)
        std::cout << "  a board over 128 KiB: not tried, a " << o.game.config.width << "x" << o.game.config.height
                  << " board cannot hold one\n";
    else if (*big_delivered)
        std::cout << "  a board over 128 KiB: the bot receives it whole\n";
    else
        std::cout << "  a board over 128 KiB: NOT delivered (see the forfeits above); a busy 1000x1000 game has such "
                     "boards on most turns\n";
    if (sandbox_failure) explain_sandbox_failure(*sandbox_failure);
    auto med = median(times);
    std::cout << "  move time: median " << format_ms(med) << ", max " << format_ms(maximum(times)) << "\n";
    auto per_game = std::chrono::duration_cast<std::chrono::seconds>(med * o.game.config.generations);
    std::cout << "  a " << o.game.config.generations << "-generation game takes about " << format_duration(per_game)
              << " of this bot's time\n";
    advise_on_time(player, board_times, timeouts);
    int differ = 0;
    if (player.warm()) {
        BotPlayer cold(bot, o.game.limits(), setup.host(nullptr, false));
        differ = compare_warm_and_cold(player, cold, cases);
    }
    if (differ)
        std::cout << "  warning: the bot answers " << differ << " of " << cases.size() * 2
                  << " boards differently run warm than run cold; run it with --cold, or give it a bot.json with "
                     "\"warm\": false (docs/protocol.md)\n";
    if (invalid) std::cout << "  NOT OK: " << invalid << " of " << times.size() << " moves would be forfeited\n";
    if (differ) std::cout << "  NOT OK: its warm replies differ from its cold ones\n";
    if (invalid || differ) return 1;
    std::cout << "  OK: every reply was valid\n";
    return 0;
}

}  // namespace

void add_check(CLI::App& app, Action& run) {
    auto o = std::make_shared<CheckOptions>();
    CLI::App* cmd = app.add_subcommand("check", "Build a bot, try it on sample boards and report");
    cmd->add_option("BOT", o->bot, "A path, or a name under --bots")->required();
    add_game_options(*cmd, o->game);
    add_bot_locations(*cmd, o->where);
    cmd->add_flag("--no-sandbox", o->no_sandbox, "Run the bot without bubblewrap (a league runs it inside)");
    cmd->add_option("--runs", o->runs, "Moves per board and seat")->check(CLI::Range(1, 1000))->capture_default_str();
    cmd->add_flag("-v,--verbose", o->verbose, "Trace each board sent and each reply on stderr, one line each");
    cmd->callback([o, &run] { run = [o] { return run_check(*o); }; });
}

}  // namespace gol::runner::cli
