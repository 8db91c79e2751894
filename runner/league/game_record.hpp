// One finished league game as the results store keeps it (games/KEY.json), and the check a
// stored record passes before it counts (docs/league.md): anyone who can write the store can
// write a record, so a record is trusted only for the game it names and a result that game
// could have had.
#pragma once

#include "runner/league/league_schedule.hpp"
#include "runner/game/match.hpp"

#include <array>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>

namespace gol::runner {

// The inputs that decided the game, then its key and what happened.
struct GameRecord : GameInputs {
    std::string key;
    GameResult result;
    // By seat: forfeited turns per reason, and "reason: detail" of the last one.
    std::array<std::map<std::string, int>, 2> forfeit_reasons;
    std::array<std::string, 2> last_forfeit;
};

// What is wrong with a stored record.
struct RecordError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// The record as stored: JSON with its inputs and its result.
std::string record_text(const GameRecord& record);

// Reads a stored record for `game`. Throws RecordError saying what is wrong when the text is
// not a record, names other inputs or another key than the game's, or holds a result no game
// with those inputs can have (docs/league.md lists the checks).
GameRecord read_record(std::string_view text, const ScheduledGame& game);

}  // namespace gol::runner
