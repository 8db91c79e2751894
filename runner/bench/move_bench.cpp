// The runner's cost per move for an argv bot on a board of N live cells, through the path a game
// takes (BotPlayer::move: the board's delivery, the process, its limits, reading and checking the
// reply), optionally in the sandbox. scripts/bench/overhead sets it beside a bare spawn loop, and
// scripts/bench/warm a warm interpreter's moves beside cold ones.
// Usage: move-bench PROGRAM CELLS MOVES [--sandbox] [--cold] [--turns]. A PROGRAM ending in .py
// runs as `python3 PROGRAM`, one ending in .rb as `ruby PROGRAM`, warm unless --cold. --turns:
// two players of it move in turn, as a game's two bots do (what one does between its moves
// overlaps the other's). Prints one JSON line: each player's first move, which starts its
// launcher and warm interpreter as a game's first tick does, is start_seconds; move_seconds is
// the other timed_moves, the cost of a move in the rest of a game.
#include "engine/board.hpp"
#include "runner/bots/bot_player.hpp"
#include "runner/sys/cpu_pin.hpp"
#include "runner/sys/process.hpp"
#include "runner/game/protocol.hpp"
#include "runner/sandbox/sandbox.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <vector>

int main(int argc, char** argv) {
    using namespace gol;
    using namespace gol::runner;
    using Clock = std::chrono::steady_clock;
    bool sandboxed = false, cold = false, turns = false;
    for (int i = 4; i < argc; ++i) {
        if (std::strcmp(argv[i], "--sandbox") == 0) sandboxed = true;
        else if (std::strcmp(argv[i], "--cold") == 0) cold = true;
        else if (std::strcmp(argv[i], "--turns") == 0) turns = true;
        else argc = 0;
    }
    if (argc < 4) {
        std::fprintf(stderr, "usage: move-bench PROGRAM CELLS MOVES [--sandbox] [--cold] [--turns]\n");
        return 2;
    }
    const long cells = std::atol(argv[2]), moves = std::atol(argv[3]);
    become_subreaper();  // as the runner does: the sandbox's orphans are reaped here
    pin_to_current_cpu();  // as a duel's game thread is (a league's is pinned to its CPU too)
    std::optional<std::string> bwrap;
    if (sandboxed && !(bwrap = Sandbox::find_bubblewrap())) {
        std::fprintf(stderr, "move-bench: --sandbox needs bubblewrap\n");
        return 2;
    }
    // As the runner sets them up (runner/cli/game_options.cpp).
    const WorkArea area(sandboxed && ::geteuid() == 0);
    std::optional<Sandbox> sandbox;
    if (bwrap) sandbox.emplace(*bwrap, area);

    Board board(1000, 1000);
    std::mt19937 rng(1);
    std::vector<Cell> one;
    while (board.population(Player::one) + board.population(Player::two) < cells) {
        one.assign(1, {static_cast<int>(rng() % 1000), static_cast<int>(rng() % 1000)});
        board.place(rng() % 2 ? Player::one : Player::two, one);
    }
    std::string json;

    PreparedBot bot;
    bot.spec.name = "bench";
    bot.spec.path = argv[1];
    bot.spec.dir = std::filesystem::absolute(argv[1]).parent_path();
    const std::string program = std::filesystem::absolute(argv[1]).string();
    const bool python = program.ends_with(".py"), ruby = program.ends_with(".rb");
    bot.spec.kind = python ? SourceKind::python : ruby ? SourceKind::ruby : SourceKind::executable;
    bot.command = {program};
    if (python || ruby) bot.command.insert(bot.command.begin(), *find_in_path(python ? "python3" : "ruby", bot_path));
    bot.dir = bot.spec.dir;
    bot.files = {std::filesystem::absolute(argv[1])};
    const BotHost host{area, sandbox ? &*sandbox : nullptr, nullptr, !cold};
    std::vector<std::unique_ptr<BotPlayer>> players;
    for (int i = 0; i < (turns ? 2 : 1); ++i) players.push_back(std::make_unique<BotPlayer>(bot, move_limits(1000, 1024), host));

    double start_s = 0, move_s = 0, encode_s = 0;
    long forfeits = 0;
    std::string first_forfeit;
    for (long i = 0; i < moves; ++i) {
        auto t0 = Clock::now();
        encode_board(board, 1 + static_cast<int>(i % 2), i, json);
        auto t1 = Clock::now();
        MoveReport m = players[static_cast<std::size_t>(i) % players.size()]->move(json);
        if (!m.ok() && forfeits++ == 0) first_forfeit = std::string(name(m.forfeit->kind)) + ": " + m.forfeit->detail;
        auto t2 = Clock::now();
        encode_s += std::chrono::duration<double>(t1 - t0).count();
        (i < static_cast<long>(players.size()) ? start_s : move_s) += std::chrono::duration<double>(t2 - t1).count();
    }
    const long timed = std::max(0L, moves - static_cast<long>(players.size()));
    std::printf("{\"cells\":%ld,\"json_bytes\":%zu,\"moves\":%ld,\"start_seconds\":%.4f,\"timed_moves\":%ld,"
                "\"move_seconds\":%.4f,\"encode_seconds\":%.4f,\"forfeits\":%ld,\"warm\":%s}\n",
                cells, json.size(), moves, start_s, timed, move_s, encode_s, forfeits,
                players[0]->warm() ? "true" : "false");
    if (forfeits == 0) return 0;
    std::fprintf(stderr, "move-bench: %ld forfeits, the first %s\n", forfeits, first_forfeit.c_str());
    return 1;
}
