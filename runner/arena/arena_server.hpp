// `runner serve`: the arena (docs/arena.md). One thread watches the listening socket and the
// clients waiting for a game, all non-blocking with deadlines, so no client can stall it; each
// game runs in a thread of its own, at most `jobs` at once, and is stored when it ends.
#pragma once

#include "runner/arena/arena_keys.hpp"
#include "runner/league/league.hpp"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <stop_token>
#include <string>
#include <string_view>

namespace gol::runner {

struct ArenaError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// What a training bot's name begins with; with --training, no client may identify under it.
inline constexpr std::string_view training_prefix = "Training/";

// --training: what a client left waiting alone plays. Its games are stored apart, in the
// results folder's training/, and never counted in the arena's table.
struct ArenaTraining {
    std::string name;  // as the clients see it: "Training/BOT"
    std::string hash;  // the bot's content hash
    // A player of the bot for one game, given the game's seed.
    std::function<std::unique_ptr<Mover>(std::uint64_t seed)> player;
    std::chrono::milliseconds after{30'000};  // how long a client waits alone before it plays it
};

struct ArenaOptions {
    std::string bind = "0.0.0.0";
    int port = 0;  // 0: a free port, which Arena::port() says
    std::filesystem::path results_dir;
    LeagueSettings settings;  // the board, the generations and the time limit per move
    int jobs = 1;             // games at once
    std::optional<ArenaKeys> keys;
    std::chrono::milliseconds identify_within{10'000};
    // Under pressure (over half of max_waiting identifying) a new connection has less time, down to this.
    std::chrono::milliseconds identify_at_least{250};
    std::size_t max_waiting = 512;  // connections identifying or waiting; beyond, an identifying one makes room
    std::size_t max_per_address = 32;  // connections identifying or waiting from one address
    std::chrono::milliseconds log_interval{10'000};  // closed connections are summarised per address per interval
    int log_lines = 1;                               // lines in full per address per interval
    std::size_t max_names = 1000;     // names the arena lists; a new name beyond is refused
    int names_per_address = 10;       // new names one address may bring to play in an hour
    int games_per_name = 600;         // games a name may begin in an hour
    std::chrono::milliseconds leaderboard_every{10'000};  // the leaderboard page at most this often
    // Told of each stored game (its viewer page) and, at most every leaderboard_every, of the
    // table (the leaderboard), on a thread of its own: the pages never hold up the serving.
    LeagueObserver* observer = nullptr;
    std::optional<ArenaTraining> training;
};

class Arena {
public:
    // Binds the socket and opens the store. Throws ArenaError (the address), StoreError.
    Arena(ArenaOptions options, std::FILE* log);
    ~Arena();
    Arena(const Arena&) = delete;
    Arena& operator=(const Arena&) = delete;

    int port() const;
    // Serves until `stop`. The games in progress then end, not stored.
    void serve(std::stop_token stop);

private:
    struct State;
    std::unique_ptr<State> state_;
};

}  // namespace gol::runner
