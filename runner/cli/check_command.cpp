#include "runner/cli/command.hpp"
#include "runner/cli/game_options.hpp"

#include "runner/game/game_stats.hpp"
#include "runner/game/protocol.hpp"
#include "runner/game/traced_mover.hpp"
#include "runner/sys/long_argument.hpp"
#include "runner/report/progress.hpp"
#include "runner/text/terminal_text.hpp"

#include <iostream>
#include <memory>
#include <optional>
#include <random>

namespace gol::runner::cli {

namespace {

struct CheckOptions {
    std::string bot;
    GameOptions game;
    BotLocations where;
    int runs = 5;
    bool verbose = false;
};

constexpr auto kSlowMove = std::chrono::milliseconds(100);

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

// What a bot wrote, as one line of at most about `n` bytes, its control characters escaped.
std::string shorten(std::string s, std::size_t n = 160) {
    while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
    if (s.size() > n) return terminal_line(s.substr(0, n)) + "...";
    return terminal_line(s);
}

// A reply on one line: its cells as JSON, shortened, or its forfeit.
std::string reply_text(const Move& m) {
    if (!m.ok()) return "FORFEIT " + std::string(name(m.forfeit->kind)) + ": " + terminal_line(m.forfeit->detail);
    std::string reply = "[";
    for (const Cell& cell : m.cells)
        reply += (reply.size() > 1 ? ",[" : "[") + std::to_string(cell.y) + "," + std::to_string(cell.x) + "]";
    return shorten(reply + "]");
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

int run_check(const CheckOptions& o) {
    PlaySetup setup(o.game.sandbox);
    auto t0 = std::chrono::steady_clock::now();
    PreparedBot bot = load_bot(o.bot, o.where, setup.sandbox());
    auto built = std::chrono::steady_clock::now() - t0;
    std::cout << bot.spec.name << ": " << bot.spec.path.string() << "\n";
    std::cout << "  command:  ";
    for (const std::string& a : bot.command) std::cout << terminal_line(a) << ' ';
    std::cout << "\n  protocol: " << name(bot.spec.protocol) << "\n";
    std::cout << "  ready in  " << format_ms(std::chrono::duration_cast<std::chrono::microseconds>(built))
              << " (build included when one ran)\n";

    std::cout << "  sandbox:  " << (setup.sandbox() ? "yes" : "no (--sandbox to try it in one)") << "\n";
    BotPlayer player(bot, o.game.limits(), setup.host(nullptr, !o.game.cold));
    std::cout << "  runs:     " << how_it_runs(player) << "\n";
    std::optional<TracedMover> traced;
    if (o.verbose) traced.emplace(player, bot.spec.name, std::cerr);
    Mover& mover = o.verbose ? static_cast<Mover&>(*traced) : player;
    const Board empty(o.game.config.height, o.game.config.width);
    const Board busy = busy_board(o.game.config);
    const std::optional<Board> big = big_board(o.game.config);
    std::vector<std::chrono::microseconds> times;
    std::string json;
    int invalid = 0;
    std::optional<bool> big_delivered;  // set when the big board was tried
    std::vector<CheckBoard> cases = {CheckBoard{"empty board", empty}, CheckBoard{"busy board", busy}};
    if (big) cases.push_back(CheckBoard{"big board", *big, true});
    for (const CheckBoard& c : cases)
        for (int seat = 1; seat <= 2; ++seat) {
            encode_board(c.board, seat, 0, json);
            std::cout << "  " << c.what << " (" << c.board.population(Player::one) + c.board.population(Player::two)
                      << " live cells, " << json.size() / 1024 << " KiB of JSON), seat " << seat << ":\n";
            for (int run = 0; run < o.runs; ++run) {
                MoveReport m = mover.move(c.board, seat, run);
                if (c.over_argument_limit)
                    big_delivered = big_delivered.value_or(true) && (m.ok() || m.forfeit->kind != ForfeitKind::board_too_large);
                times.push_back(m.elapsed);
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
                if (!m.ok() && !m.out.empty()) std::cout << "      stdout: " << shorten(m.out) << "\n";
                if (!m.ok() && !m.err.empty()) std::cout << "      stderr: " << shorten(m.err) << "\n";
            }
        }
    if (!big_delivered)
        std::cout << "  a board over 128 KiB: not tried, a " << o.game.config.width << "x" << o.game.config.height
                  << " board cannot hold one\n";
    else if (*big_delivered)
        std::cout << "  a board over 128 KiB: the bot receives it whole\n";
    else
        std::cout << "  a board over 128 KiB: NOT delivered (see the forfeits above); a busy 1000x1000 game has such "
                     "boards on most turns\n";
    auto med = median(times);
    std::cout << "  move time: median " << format_ms(med) << ", max " << format_ms(maximum(times)) << "\n";
    auto per_game = std::chrono::duration_cast<std::chrono::seconds>(med * o.game.config.generations);
    std::cout << "  a " << o.game.config.generations << "-generation game takes about " << format_duration(per_game)
              << " of this bot's time\n";
    // A warm bot does not start its interpreter per move: what is slow is its own work.
    if (med > kSlowMove && player.warm())
        std::cout << "  warning: a move takes over " << kSlowMove.count()
                  << " ms of the bot's own work (it runs warm: its interpreter does not start per move)\n";
    else if (med > kSlowMove)
        std::cout << "  warning: a move takes over " << kSlowMove.count() << " ms, most of it probably starting "
                  << terminal_line(bot.command[0])
                  << "; the stdin protocol does not help, the persistent protocol (docs/protocol.md) does\n";
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
    cmd->add_option("--runs", o->runs, "Moves per board and seat")->check(CLI::Range(1, 1000))->capture_default_str();
    cmd->add_flag("-v,--verbose", o->verbose, "Trace each board sent and each reply on stderr, one line each");
    cmd->callback([o, &run] { run = [o] { return run_check(*o); }; });
}

}  // namespace gol::runner::cli
