// Game replays: JSON Lines with a header, one line per tick and the result (docs/replay.md).
#pragma once

#include "runner/game/match.hpp"

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
};

struct RecordedMove {
    std::vector<Cell> applied;
    std::optional<Forfeit> forfeit;
};

struct Replay {
    ReplayHeader header;
    std::vector<std::array<RecordedMove, 2>> ticks;
    GameResult result;
};

// Records a game as it is played; text() is the whole replay once finish() has been called.
class ReplayRecorder : public GameObserver {
public:
    explicit ReplayRecorder(const ReplayHeader& header);
    void on_move(int tick, int seat, const SeatMove& move) override;
    void finish(const GameResult& result);
    const std::string& text() const { return text_; }

private:
    std::string text_;
    std::string tick_line_;  // seat 1's half of the tick being played
};

// The records of a replay as JSON, as the file holds them (docs/replay.md).
nlohmann::json header_json(const ReplayHeader& header);
nlohmann::json move_json(const std::vector<Cell>& applied, const std::optional<Forfeit>& forfeit);
nlohmann::json result_json(const GameResult& result);

// Throws ReplayError naming the line that is wrong, or saying how the header, the ticks and the
// result disagree: within the runner's limits (board up to 4096x4096, up to 10000000
// generations), one tick per generation played, and a game ended by its limit played them all.
Replay read_replay(std::istream& in);

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

// The board after `generation` generations (0: the empty board before the first move).
// Throws ReplayError unless 0 <= generation <= the generations the game lasted.
Board board_at(const Replay& replay, int generation);

bool same_result(const GameResult& a, const GameResult& b);

}  // namespace gol::runner
