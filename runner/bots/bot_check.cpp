#include "runner/bots/bot_check.hpp"
#include "runner/game/game_stats.hpp"
#include "runner/game/protocol.hpp"
#include "runner/sandbox/long_argument.hpp"

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

// `percent` of the board alive, in both players' cells: 30% is what a late game of block builders reaches.
Board dense_board(const GameConfig& config, int percent) {
    Board board(config.height, config.width);
    std::mt19937_64 rng(20160714);
    std::vector<Cell> one, two;
    for (int y = 0; y < config.height; ++y)
        for (int x = 0; x < config.width; ++x)
            if (const auto r = rng() % 100; r < static_cast<unsigned>(percent)) (r % 2 ? one : two).push_back({y, x});
    board.place(Player::one, one);
    board.place(Player::two, two);
    return board;
}

// The share of the board alive on the late-game board, in percent, and the sparser boards the
// check tries when the bot times out on it, to say from which density it does.
constexpr int kLateGamePercent = 30;
constexpr std::array<std::pair<int, const char*>, 3> kDenser = {
    {{5, "board 5% alive"}, {10, "board 10% alive"}, {20, "board 20% alive"}}};

// What a move that failed in the sandbox tells of the sandbox: its stderr lines that name a file
// it may not write or that is not there, a permission, the network. The board is never played
// again outside the sandbox: that would run a stranger's code as the runner's user (a bot that
// fails whenever it is not root would get root there). --no-sandbox is the way to compare, and
// the user asks for it.
std::vector<std::string> refusals(const MoveReport& boxed) {
    static constexpr std::array<std::string_view, 12> signs = {
        "Read-only file system", "Permission denied", "No such file", "Operation not permitted",
        "Network is unreachable", "Temporary failure in name resolution", "Name or service not known",
        "EROFS", "EACCES", "ENOENT", "EPERM", "ENETUNREACH"};
    std::vector<std::string> refused;
    for (std::string_view line : lines_of(boxed.err))
        if (std::any_of(signs.begin(), signs.end(), [&](std::string_view s) { return line.find(s) != line.npos; }))
            refused.emplace_back(line);
    return refused;
}

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
    return SlowMoves{cause, *slowest, *fastest};
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
            const Move first = cold.move(b.board, seat, b.tick), second = cold.move(b.board, seat, b.tick);
            const Move warm_reply = warm.move(b.board, seat, b.tick);
            using Outcome = WarmAgainstCold::Outcome;
            const Outcome outcome = !same_reply(first, second)    ? Outcome::varies
                                    : same_reply(warm_reply, first) ? Outcome::same
                                                                    : Outcome::different;
            compared.push_back({b.what, seat, outcome, warm_reply, first});
        }
    return compared;
}

// Plays the check's moves and keeps what the report needs of them.
struct CheckPlay {
    const CheckedBot& bot;
    const CheckSettings& settings;
    const std::function<void(const CheckedMove&)>& on_move;
    CheckReport& report;
    std::vector<std::chrono::microseconds> times = {};
    // The board's JSON, encoded once per board and seat, not before every run: a move's time is
    // not measured just after megabytes were written (only the tick's digits differ between runs).
    std::string json = {};
    std::string encoded_what = {};  // the board and seat `json` is of
    int encoded_seat = 0;
    std::optional<MoveReport> last_failure = {};
    int same_in_a_row = 0;

    // Plays `c` as `seat` at its run `run`; false once a failure repeated kSameFailureStop times
    // in a row ends the check.
    bool play(const CheckBoard& c, int seat, int run, std::vector<std::chrono::microseconds>& in_time) {
        const int tick = c.tick_of(run, settings.generations);
        if (encoded_what != c.what || encoded_seat != seat) {
            encode_board(c.board, seat, 0, json);
            encoded_what = c.what;
            encoded_seat = seat;
        }
        // tick_id is the JSON's last field.
        const std::size_t json_bytes = json.size() - 1 + std::to_string(tick).size();
        const MoveReport m = bot.mover.move(c.board, seat, tick);
        if (c.over_argument_limit && report.big_board != BigBoard::not_delivered)
            report.big_board = m.ok() || m.forfeit->kind != ForfeitKind::board_too_large ? BigBoard::delivered
                                                                                        : BigBoard::not_delivered;
        times.push_back(m.elapsed);
        const bool timed_out = !m.ok() && m.forfeit->kind == ForfeitKind::timeout;
        if (timed_out) ++report.timeouts;
        else in_time.push_back(m.elapsed);
        int applied = 0;
        std::optional<OffBoard> off;
        if (m.ok()) {
            Board placed = c.board;
            applied = placed.place(seat == 1 ? Player::one : Player::two, m.cells);
            off = off_board(m.cells, c.board.height(), c.board.width());
            if (off && off->mostly() && report.off_board++ == 0) report.first_off_board = off;
            if (off && !off->mostly() && report.partly_off_board++ == 0) report.first_partly_off_board = off;
        } else if (!(c.dense && timed_out)) {  // a dense board's timeout is slowness, not a broken protocol
            ++report.invalid;
            if (settings.sandboxed && !report.sandbox_refusals) report.sandbox_refusals = refusals(m);
        }
        on_move(CheckedMove{c, seat, run, tick, json_bytes, m, applied, off});
        if (c.late_game) {
            CheckReport::LateGame& late = report.late_game.emplace(report.late_game.value_or(CheckReport::LateGame{}));
            late.live_cells = static_cast<std::size_t>(c.board.population(Player::one) + c.board.population(Player::two));
            late.json_bytes = json_bytes;
            late.max = std::max(late.max, m.elapsed);
            late.timeouts += timed_out;
        }
        // A dense board's timeout is expected of a slow bot, and the sparser boards still tell something.
        if (c.dense && timed_out) return true;
        // The same failure: the same forfeit and the same stderr.
        const bool same = !m.ok() && last_failure && m.forfeit == last_failure->forfeit && m.err == last_failure->err;
        same_in_a_row = same ? same_in_a_row + 1 : 1;
        last_failure = m.ok() ? std::nullopt : std::optional<MoveReport>(m);
        report.stopped = last_failure && same_in_a_row >= kSameFailureStop;
        return !report.stopped;
    }

    // The density from which the bot's moves time out, after a timeout on the late-game board:
    // sparser boards, sparsest first, once each as seat 1, until one times out.
    void find_slow_density(const GameConfig& config, int tick) {
        CheckReport::LateGame& late = *report.late_game;
        late.slow_from_percent = kLateGamePercent;
        late.slow_from_cells = late.live_cells;
        std::vector<std::chrono::microseconds> unused;
        for (const auto& [percent, what] : kDenser) {
            const CheckBoard c{.what = what, .board = dense_board(config, percent), .seat = 1,
                               .tick = tick, .same_tick = true, .dense = true};
            const int before = report.timeouts;
            if (!play(c, 1, 0, unused)) return;
            if (report.timeouts > before) {
                late.slow_from_percent = percent;
                late.slow_from_cells = static_cast<std::size_t>(c.board.population(Player::one) + c.board.population(Player::two));
                return;
            }
            late.in_time_percent = percent;
        }
    }
};

}  // namespace

RunMode run_mode(const BotPlayer& player) {
    if (player.warm()) return RunMode::warm;
    if (player.bot().spec.protocol == Protocol::persistent) return RunMode::persistent;
    if (player.bot().spec.protocol == Protocol::tlv) return RunMode::tlv;
    if (!player.bot().spec.warm) return RunMode::cold_by_manifest;
    return RunMode::per_move;
}

std::vector<CheckBoard> check_boards(const GameConfig& config) {
    // Where a game has such boards: a busy one early, a big one half way, a dense one late.
    const int generations = config.generations;
    std::vector<CheckBoard> boards = {{.what = "empty board", .board = Board(config.height, config.width)},
                                      {.what = "busy board", .board = busy_board(config), .tick = generations / 10}};
    if (std::optional<Board> big = big_board(config))
        boards.push_back(
            {.what = "big board", .board = std::move(*big), .over_argument_limit = true, .tick = generations / 2});
    Board late = dense_board(config, kLateGamePercent);
    std::string json;
    encode_board(late, 1, 0, json);
    boards.push_back({.what = "late-game board", .board = std::move(late), .over_argument_limit = too_long_for_argv(json),
                      .tick = generations * 9 / 10, .late_game = true, .dense = true});
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
    CheckPlay play{bot, settings, on_move, report};
    std::vector<BoardTime> board_times;
    for (const CheckBoard& c : boards) {
        std::vector<std::chrono::microseconds> in_time;
        for (int seat = 1; seat <= 2 && !report.stopped; ++seat) {
            if (!c.plays(seat)) continue;
            for (int run = 0; run < (c.late_game ? 1 : settings.runs); ++run)
                if (!play.play(c, seat, run, in_time)) break;
        }
        // The late-game board's time is reported apart, not as the slow board of a normal game.
        if (!in_time.empty() && !c.late_game) board_times.push_back(BoardTime{c.what, median(std::move(in_time))});
        if (report.stopped) break;
        if (c.late_game && report.late_game && report.late_game->timeouts > 0)
            play.find_slow_density(GameConfig{c.board.width(), c.board.height(), settings.generations}, c.tick);
    }
    report.moves = static_cast<int>(play.times.size());
    report.median = median(play.times);
    report.max = maximum(play.times);
    report.per_game = std::chrono::duration_cast<std::chrono::seconds>(report.median * settings.generations);
    if (bot.mode == RunMode::persistent) report.unflushed = report.timeouts;
    report.slow = slow_moves(bot.mode, board_times);
    if (bot.mode == RunMode::warm && !report.stopped)
        report.warm_against_cold = compare_warm_and_cold(bot.player, *bot.make_cold(), boards);
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
