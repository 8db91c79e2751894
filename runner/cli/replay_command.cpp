#include "runner/cli/command.hpp"

#include "runner/replay.hpp"

#include <fstream>
#include <iostream>
#include <memory>

namespace gol::runner::cli {

namespace {

std::string describe_result(const Replay& replay, const GameResult& r) {
    const auto& bots = replay.header.bots;
    std::string who = r.verdict.winner_seat == 0 ? "draw" : bots[r.verdict.winner_seat - 1] + " wins";
    return who + " by " + std::string(name(r.verdict.reason)) + " after " + std::to_string(r.generations) +
           " generations, cells " + std::to_string(r.cells[0]) + "-" + std::to_string(r.cells[1]) + ", forfeits " +
           std::to_string(r.forfeits[0]) + "-" + std::to_string(r.forfeits[1]);
}

int run_replay(const std::string& file) {
    std::ifstream in(file);
    if (!in) throw UsageError(file + ": cannot be read");
    Replay replay;
    try {
        replay = read_replay(in);
    } catch (const ReplayError& e) {
        throw ReplayError(file + ": " + e.what());
    }
    GameResult again = resimulate(replay);
    std::cout << file << ": " << replay.header.bots[0] << " vs " << replay.header.bots[1] << "\n";
    std::cout << "  recorded:    " << describe_result(replay, replay.result) << "\n";
    std::cout << "  resimulated: " << describe_result(replay, again) << "\n";
    if (!same_result(replay.result, again)) {
        std::cout << "MISMATCH: the replay does not reproduce its recorded result\n";
        return 1;
    }
    std::cout << "OK: the replay reproduces its result\n";
    return 0;
}

}  // namespace

void add_replay(CLI::App& app, Action& run) {
    auto file = std::make_shared<std::string>();
    CLI::App* cmd = app.add_subcommand("replay", "Re-simulate a replay; exit 1 if its result differs");
    cmd->add_option("FILE", *file, "A replay written by duel --replay or a league")->required();
    cmd->callback([file, &run] { run = [file] { return run_replay(*file); }; });
}

}  // namespace gol::runner::cli
