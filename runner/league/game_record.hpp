// One finished league game as the results store keeps it (games/KEY.json), and the check a
// stored record passes before it counts (docs/league.md): anyone who can write the store can
// write a record, so a record is trusted only for the game it names and a result that game
// could have had.
#pragma once

#include "runner/game/game_stats.hpp"
#include "runner/game/replay.hpp"
#include "runner/league/league_schedule.hpp"
#include "runner/text/time_text.hpp"

#include <array>
#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace gol::runner {

// When a game was played: its start, UTC to the second ("2026-11-27T03:17:02Z"), and how long it
// took on the wall clock, from its first move to its stored result.
struct GameWhen {
    std::string started;
    std::chrono::milliseconds duration{0};

    bool operator==(const GameWhen&) const = default;
};

// The inputs that decided the game, then its key and what happened.
struct GameRecord : GameInputs {
    std::string key;
    GameResult result;
    // By seat: forfeited turns per reason, and "reason: detail" of the last one.
    std::array<std::map<std::string, int>, 2> forfeit_reasons;
    std::array<std::string, 2> last_forfeit;
    // By seat: time per move. None in records from runners before it was kept.
    std::optional<std::array<MoveTiming, 2>> timing;
    // None in records from runners before it was kept, and in an arena's.
    std::optional<GameWhen> when;
    // By seat: the git commit a bot from a repository played (docs/league.md); "" for another bot.
    std::array<std::string, 2> commits;
};

// The record of a game just played.
GameRecord make_record(const ScheduledGame& game, const GameResult& result, const GameStats& stats);

// The record as stored.
std::string record_text(const GameRecord& record);

// Reads a stored record for `game`. Throws RecordError saying what is wrong when the text is
// not a record (a field missing or of the wrong type, an unknown reason or forfeit), names other
// inputs or another key than the game's, or holds a result no game with those inputs can have
// (docs/league.md lists the checks).
GameRecord read_record(std::string_view text, const ScheduledGame& game);

}  // namespace gol::runner
