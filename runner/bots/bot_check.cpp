#include "runner/bots/bot_check.hpp"
#include "runner/game/game_stats.hpp"
#include "runner/game/protocol.hpp"
#include "runner/sys/long_argument.hpp"

#include <algorithm>
#include <array>
#include <random>

namespace gol::runner {

namespace {

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

// 30% of the board alive, in both players' cells: what a late game of block builders reaches.
Board late_game_board(const GameConfig& config) {
    Board board(config.height, config.width);
    std::mt19937_64 rng(20160714);
    std::vector<Cell> one, two;
    for (int y = 0; y < config.height; ++y)
        for (int x = 0; x < config.width; ++x)
            if (const auto r = rng() % 100; r < 30) (r % 2 ? one : two).push_back({y, x});
    board.place(Player::one, one);
    board.place(Player::two, two);
    return board;
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
std::vector<std::string> refusals(const MoveReport& boxed) {
    std::vector<std::string> refused;
    for (std::string_view line : lines_of(boxed.err))
        if (names_a_refusal(line)) refused.emplace_back(line);
    return refused;
}

// A board's median move time, moves that timed out left out: they say nothing of how long a reply takes.
struct BoardTime {
    const char* what;
    std::chrono::microseconds median;
};

// Why moves are slow, when they are. A persistent bot starts once per game, so its time is never
// start-up; for a bot started per move, the board it answers fastest (the empty one, usually) is
// about what starting it costs.
std::optional<SlowMoves> slow_moves(RunMode mode, const std::vector<BoardTime>& boards) {
    if (boards.empty()) return std::nullopt;
    const auto [fastest, slowest] = std::minmax_element(
        boards.begin(), boards.end(), [](const BoardTime& a, const BoardTime& b) { return a.median < b.median; });
    if (slowest->median <= kSlowMove) return std::nullopt;
    using Cause = SlowMoves::Cause;
    const Cause cause = mode == RunMode::persistent || mode == RunMode::tlv ? Cause::persistent_work
                        : mode == RunMode::warm                      ? Cause::warm_work
                        : fastest->median > kSlowMove                ? Cause::start_up
                        : slowest->median >= 2 * fastest->median     ? Cause::own_work
                                                                     : Cause::both;
    return SlowMoves{cause, slowest->what, slowest->median, fastest->what, fastest->median};
}

// Two replies alike: the same cells, or forfeits of the same kind. A forfeit's detail is not the
// reply: a timeout is worded by how the move ran (warm, cold, where the time went).
bool same_reply(const Move& a, const Move& b) {
    if (a.ok() != b.ok()) return false;
    return a.ok() ? a.cells == b.cells : a.forfeit->kind == b.forfeit->kind;
}

// Answers each board twice run cold and once run warm. Two cold replies that differ mean the
// replies vary by themselves, and that board is not compared. Only the replies are compared, not
// the time, stderr or forfeit detail they came with.
std::vector<WarmAgainstCold> compare_warm_and_cold(Mover& warm, Mover& cold, const std::vector<CheckBoard>& boards) {
    std::vector<WarmAgainstCold> compared;
    for (const CheckBoard& b : boards)
        for (int seat = 1; seat <= 2; ++seat) {
            // Three more moves on megabytes of JSON would say no more than the smaller boards.
            if (!b.plays(seat) || b.late_game) continue;
            const int tick = b.tick.value_or(0);
            const Move first = cold.move(b.board, seat, tick), second = cold.move(b.board, seat, tick);
            const Move warm_reply = warm.move(b.board, seat, tick);
            using Outcome = WarmAgainstCold::Outcome;
            const Outcome outcome = !same_reply(first, second)    ? Outcome::varies
                                    : same_reply(warm_reply, first) ? Outcome::same
                                                                    : Outcome::different;
            compared.push_back({b.what, seat, outcome, warm_reply, first});
        }
    return compared;
}

}  // namespace

RunMode run_mode(const BotPlayer& player) {
    if (player.warm()) return RunMode::warm;
    if (player.bot().spec.protocol == Protocol::persistent) return RunMode::persistent;
    if (player.bot().spec.protocol == Protocol::tlv) return RunMode::tlv;
    if (!player.bot().spec.warm) return RunMode::cold_by_manifest;
    return RunMode::per_move;
}

std::vector<CheckBoard> check_boards(const GameConfig& config) {
    std::vector<CheckBoard> boards = {CheckBoard{"empty board", Board(config.height, config.width)},
                                      CheckBoard{"busy board", busy_board(config)}};
    if (std::optional<Board> big = big_board(config)) boards.push_back(CheckBoard{"big board", std::move(*big), true});
    Board late = late_game_board(config);
    std::string json;
    encode_board(late, 1, 0, json);
    CheckBoard dense{"late-game board", std::move(late), too_long_for_argv(json)};
    dense.late_game = true;
    boards.push_back(std::move(dense));
    return boards;
}

int CheckReport::warm_differs() const {
    return static_cast<int>(std::count_if(warm_against_cold.begin(), warm_against_cold.end(), [](const WarmAgainstCold& w) {
        return w.outcome == WarmAgainstCold::Outcome::different;
    }));
}

CheckReport check_bot(const CheckedBot& bot, const std::vector<CheckBoard>& boards, const CheckSettings& settings,
                      const std::function<void(const CheckedMove&)>& on_move) {
    CheckReport report;
    std::vector<std::chrono::microseconds> times;
    std::vector<BoardTime> board_times;
    std::string json;
    std::optional<bool> big_delivered;  // set when the big board was tried
    for (const CheckBoard& c : boards) {
        std::vector<std::chrono::microseconds> in_time;
        for (int seat = 1; seat <= 2; ++seat) {
            if (!c.plays(seat)) continue;
            encode_board(c.board, seat, c.tick.value_or(0), json);
            for (int run = 0; run < (c.late_game ? 1 : settings.runs); ++run) {
                const MoveReport m = bot.mover.move(c.board, seat, c.tick.value_or(run));
                if (c.over_argument_limit)
                    big_delivered = big_delivered.value_or(true) && (m.ok() || m.forfeit->kind != ForfeitKind::board_too_large);
                times.push_back(m.elapsed);
                if (m.ok() || m.forfeit->kind != ForfeitKind::timeout) in_time.push_back(m.elapsed);
                else ++report.timeouts;
                int applied = 0;
                std::optional<OffBoard> off;
                if (m.ok()) {
                    Board placed = c.board;
                    applied = placed.place(seat == 1 ? Player::one : Player::two, m.cells);
                    off = mostly_off_board(m.cells, c.board.height(), c.board.width());
                    if (off && report.off_board++ == 0) report.first_off_board = off;
                } else {
                    ++report.invalid;
                    if (settings.sandboxed && !report.sandbox_refusals) report.sandbox_refusals = refusals(m);
                }
                on_move(CheckedMove{c, seat, run, json.size(), m, applied, off});
                if (c.late_game) {
                    CheckReport::LateGame& late = report.late_game.emplace(report.late_game.value_or(CheckReport::LateGame{}));
                    late.live_cells = static_cast<std::size_t>(c.board.population(Player::one) +
                                                               c.board.population(Player::two));
                    late.json_bytes = json.size();
                    late.max = std::max(late.max, m.elapsed);
                    late.timeouts += !m.ok() && m.forfeit->kind == ForfeitKind::timeout;
                }
            }
        }
        // The late-game board's time is reported apart, not as the slow board of a normal game.
        if (!in_time.empty() && !c.late_game) board_times.push_back(BoardTime{c.what, median(std::move(in_time))});
    }
    report.moves = static_cast<int>(times.size());
    report.big_board = !big_delivered ? BigBoard::not_tried : *big_delivered ? BigBoard::delivered : BigBoard::not_delivered;
    report.median = median(times);
    report.max = maximum(times);
    report.per_game = std::chrono::duration_cast<std::chrono::seconds>(report.median * settings.generations);
    if (bot.mode == RunMode::persistent) report.unflushed = report.timeouts;
    report.slow = slow_moves(bot.mode, board_times);
    if (bot.mode == RunMode::warm) report.warm_against_cold = compare_warm_and_cold(bot.player, *bot.make_cold(), boards);
    return report;
}

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

}  // namespace gol::runner
