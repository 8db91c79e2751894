// A game's record in memory (header, ticks, result), its JSON and the replay file: JSON Lines
// with the header, one line per tick and the result (docs/replay.md).
#pragma once

#include "runner/game/json_fields.hpp"
#include "runner/game/game_loop.hpp"

#include <nlohmann/json.hpp>

#include <array>
#include <cstdint>
#include <istream>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace gol::runner {

struct ReplayError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct ReplayHeader {
    std::array<std::string, 2> bots;    // names by seat
    std::array<std::string, 2> hashes;  // content hashes by seat
    GameConfig config;
    std::uint64_t seed = 0;
    int time_limit_ms = 1000;
    std::string rules{rules_version};
    // What the bots' moves had beside the time limit, for `runner check --board GAME` to give a
    // move again as the game did; none in a replay from before they were recorded, or from the arena.
    std::optional<std::uint64_t> gol_seed{};  // GOL_SEED, the same for both bots and every move
    std::optional<int> startup_limit_ms{};  // the start-up allowance of a bot's first move
    std::optional<bool> cpu_time{};         // the time limit counted CPU time (--time-mode cpu)
};

struct Replay {
    ReplayHeader header;
    std::vector<std::array<Move, 2>> ticks;  // the cells placed, or the forfeit, by seat
    GameResult result;
};

// Each part's JSON, as the replay file, the viewer page and the league's stored results hold it:
// one writer and one reader each. The readers throw RecordError on a value of the wrong type, an
// unknown format, version, forfeit or reason, and the header's values beyond the runner's limits
// (board up to 4096x4096, up to 10000000 generations). Ranges that depend on the game (a cell on
// its board, a result within its generations) are for the reader of the whole.
void to_json(nlohmann::json& j, const ReplayHeader& header);
void from_json(const nlohmann::json& j, ReplayHeader& header);
void to_json(nlohmann::json& j, const Move& move);
void from_json(const nlohmann::json& j, Move& move);
void to_json(nlohmann::json& j, const GameResult& result);
void from_json(const nlohmann::json& j, GameResult& result);

// The replay file's text.
std::string replay_text(const Replay& replay);

// Throws ReplayError naming the line that is wrong, or saying how the header, the ticks and the
// result disagree: one tick per generation played, every cell on the board, and a game ended by
// its limit played them all.
Replay read_replay(std::istream& in);

// Records a game as it is played: record() is the whole of it once finish() has been called.
class ReplayRecorder : public GameObserver {
public:
    explicit ReplayRecorder(ReplayHeader header) { replay_.header = std::move(header); }
    void on_move(int tick, int seat, const MoveReport& move) override;
    void finish(const GameResult& result) { replay_.result = result; }
    Replay& record() { return replay_; }

private:
    Replay replay_;
};

// Plays the recorded moves again through the same game loop and rules. Throws ReplayError when
// the game goes on past the recorded ticks (a result that does not end it).
GameResult resimulate(const Replay& replay, GameObserver& observer);
GameResult resimulate(const Replay& replay);

// Live cells by seat after each generation: counts[g - 1] is generation g.
class GenerationCounts : public GameObserver {
public:
    void on_generation(int, std::int64_t cells1, std::int64_t cells2) override { counts.push_back({cells1, cells2}); }
    std::vector<std::array<std::int64_t, 2>> counts;
};

// The board after `generation` generations (0: the empty board before the first move), played
// again through the game loop. Throws ReplayError unless 0 <= generation <= the generations the
// game lasted.
Board board_at(const Replay& replay, int generation);

// The JSON seat `seat` received at `tick` (0-based, its tick_id), encoded by the same code
// (protocol.hpp, encode_board) as when it was played: the board after `tick` generations, with
// seat 1's cells of that tick for seat 2 ("" when seat 1 was disconnected then: seat 2 was sent
// none). Throws ReplayError unless the game has that tick and the seat is 1 or 2.
std::string board_sent(const Replay& replay, int tick, int seat);

bool same_result(const GameResult& a, const GameResult& b);

// One seat's forfeited turns in a row: consecutive ticks forfeited for the same reason. A turn is
// named by its tick, the tick_id its bot was sent, everywhere (docs/replay.md, "Ticks and
// generations"): tick t's moves are made on generation t's board and make generation t+1.
struct ForfeitRun {
    int seat = 1;
    int first_tick = 0, last_tick = 0;
    Forfeit forfeit;  // the first turn's
};

// The forfeited turns of `ticks` (a replay's), by their first tick, seat 1 first on a tie.
std::vector<ForfeitRun> forfeit_runs(const std::vector<std::array<Move, 2>>& ticks);

// "tick 5", or "ticks 7-9" for a run of several.
std::string ticks_text(const ForfeitRun& run);

}  // namespace gol::runner
