// Game replays: JSON Lines with a header, one line per tick and the result (docs/replay.md).
#pragma once

#include "runner/match.hpp"

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

// Throws ReplayError naming the line that is wrong.
Replay read_replay(std::istream& in);

// Plays the recorded moves again through the same game loop and rules.
GameResult resimulate(const Replay& replay);

bool same_result(const GameResult& a, const GameResult& b);

}  // namespace gol::runner
