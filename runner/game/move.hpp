// One move: the cells a seat places or why it forfeited its turn, and what makes moves.
#pragma once

#include "engine/board.hpp"

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gol::runner {

inline constexpr std::size_t max_cells_per_move = 30;

// Why a turn was forfeited. The names are stable: they appear in replays and reports.
enum class ForfeitKind {
    timeout,
    signal,
    exit_status,
    output_cap,
    not_json,
    not_pairs,
    non_integer,
    too_many_cells,
    could_not_start,
    board_too_large,
    protocol,  // a persistent bot broke its line protocol, or a reply held a NUL byte
    gave_up,   // a persistent bot restarted too often and sits out the rest of the game
    resource_limit,  // CPU time, memory or file size limit
    // An arena client broke the protocol, let its time run out or left: it is disconnected and
    // loses the game (2014 rules, docs/arena.md). The game loop ends the game on it.
    disconnected,
    // The bot's time bank for the game is spent (GameConfig::time_bank_s): the game loop
    // forfeits its move without running it.
    time_bank,
};

std::string_view name(ForfeitKind kind);
std::optional<ForfeitKind> forfeit_kind_from_name(std::string_view text);

struct Forfeit {
    ForfeitKind kind;
    // A plain sentence and, where there is one, the fix, e.g. "the bot exited with status 3".
    std::string detail;
    friend bool operator==(const Forfeit&, const Forfeit&) = default;
};

// The start of a bot's `text` for a message: its first line, at most `columns` wide with the
// "..." that marks a cut (text_width.hpp's cut_text): 40 columns of the text when cut. Its bytes
// are the bot's: printed escaped.
std::string text_start(std::string_view text, int columns = 43);

// The last `n` lines of a bot's stderr that hold more than whitespace, oldest first, each as
// text_start gives it (up to 200 columns and the "..."): what a crash's traceback ends with.
std::vector<std::string> last_lines(std::string_view err, std::size_t n);

// Cells or a forfeit. From a bot's reply the cells are its request (coordinates that fit no int
// are -1, off the board); once the game loop has placed them, and in a record, the cells
// actually placed. A forfeited move has no cells.
struct Move {
    std::vector<Cell> cells;
    std::optional<Forfeit> forfeit;
    bool ok() const { return !forfeit; }
    friend bool operator==(const Move&, const Move&) = default;
};

// A move with what making it cost and what the bot wrote beside it.
struct MoveReport : Move {
    std::chrono::microseconds elapsed{0};
    // User plus system CPU time of the move's processes; none where the runner could not measure it.
    std::optional<std::chrono::microseconds> cpu;
    std::string err;  // the bot's stderr, capped
    std::string out;  // the start of the bot's stdout, for reports on a forfeited turn
    // Its time limit included the start-up allowance (a bot's first move): not a near-timeout
    // however long it took within it.
    bool startup = false;
};

class GameObserver;
struct GameResult;

// What is left of a seat's time bank before its move (GameConfig::time_bank_s, docs/rules.md).
struct BankLeft {
    std::chrono::microseconds left;  // more than none: a spent bank's moves are not asked for
    int bank_s;                      // the whole bank, for the words of a move it cuts short
    friend bool operator==(const BankLeft&, const BankLeft&) = default;
};

// Something that answers a board with a move: a real bot, a recorded game, or a script in tests.
class Mover {
public:
    virtual ~Mover() = default;
    // The move of `seat` (1 or 2) on `board` at `tick`.
    virtual MoveReport move(const Board& board, int seat, int tick) = 0;
    // A mover that keeps its own board (a tlv bot, docs/protocol.md) is told of its game as it
    // goes, by play_and_record: its seat and its opponent's name first, then every placed move
    // and generation (by its watcher), then the result. Other movers need none of it.
    virtual void begin(int /*seat*/, std::string_view /*opponent*/) {}
    virtual GameObserver* watcher() { return nullptr; }
    virtual void end(const GameResult& /*result*/) {}
    // Before each move of a game, what is left of the seat's time bank: the move takes at most
    // that. None: no bank, the move has its own limit alone. A mover that runs no bot (a script,
    // a recorded game) ignores it.
    virtual void limit_next_move(std::optional<BankLeft> /*left*/) {}
};

// A Mover that passes each move to another (to watch or trace it) passes the game's news on too.
class WrappingMover : public Mover {
public:
    explicit WrappingMover(Mover& inner) : inner_(inner) {}
    void begin(int seat, std::string_view opponent) override { inner_.begin(seat, opponent); }
    GameObserver* watcher() override { return inner_.watcher(); }
    void end(const GameResult& result) override { inner_.end(result); }
    void limit_next_move(std::optional<BankLeft> left) override { inner_.limit_next_move(left); }

protected:
    Mover& inner_;
};

}  // namespace gol::runner
