#include "runner/cli/command.hpp"

#include "runner/sys/atomic_file.hpp"
#include "runner/report/board_png.hpp"
#include "runner/game/replay.hpp"
#include "runner/text/count_text.hpp"
#include "runner/text/terminal_text.hpp"
#include "runner/report/viewer_page.hpp"

#include <fstream>
#include <iostream>
#include <memory>
#include <optional>

namespace gol::runner::cli {

namespace {

// Names come from the file: printed escaped (terminal_text.hpp).
std::string describe_result(const Replay& replay, const GameResult& r) {
    const auto& bots = replay.header.bots;
    std::string who = r.verdict.winner_seat == 0 ? "draw" : terminal_line(bots[r.verdict.winner_seat - 1]) + " wins";
    return who + " by " + std::string(name(r.verdict.reason)) + " after " + count_text(r.generations, "generation") +
           ", cells " + std::to_string(r.cells[0]) + "-" + std::to_string(r.cells[1]) + ", forfeits " +
           std::to_string(r.forfeits[0]) + "-" + std::to_string(r.forfeits[1]);
}

// How many runs of forfeited turns the listing shows: a bot that fails on every tick makes one run.
constexpr std::size_t kForfeitRunsShown = 20;

// Each run of forfeited turns by its ticks, the ticks `--board TICK --seat N` takes.
void print_forfeits(const std::string& file, const Replay& replay) {
    const std::vector<ForfeitRun> runs = forfeit_runs(replay.ticks);
    if (runs.empty()) {
        std::cout << "  forfeits:    none\n";
        return;
    }
    std::cout << "  forfeits:    by tick (runner replay " << terminal_line(file)
              << " --board TICK --seat N prints the board that turn was sent):\n";
    for (std::size_t i = 0; i < runs.size() && i < kForfeitRunsShown; ++i) {
        const ForfeitRun& run = runs[i];
        std::cout << "    " << ticks_text(run) << ", seat " << run.seat << " ("
                  << terminal_line(replay.header.bots[static_cast<std::size_t>(run.seat - 1)])
                  << "): " << name(run.forfeit.kind) << ": " << terminal_line(text_start(run.forfeit.detail, 163)) << "\n";
    }
    if (runs.size() > kForfeitRunsShown) std::cout << "    and " << runs.size() - kForfeitRunsShown << " more\n";
}

struct ReplayOptions {
    std::string file;
    std::string html;
    std::string png;
    std::optional<int> generation;
    std::optional<int> board_tick;  // --board: print what --seat received at this tick
    int seat = 1;
};

void write_output(const std::string& path, std::string_view contents, const char* what) {
    try {
        write_file_atomically(path, contents);
    } catch (const std::exception& e) {
        throw UsageError(std::string(what) + " " + path + ": " + e.what());
    }
    std::cout << "wrote " << path << "\n";
}

// Reading, re-simulating and picking a board, with errors that name the file (`where`: it and
// what was asked of it).
template <typename Step>
auto in_replay(const std::string& where, Step step) {
    try {
        return step();
    } catch (const ReplayError& e) {
        throw ReplayError("replay " + terminal_line(where) + ": " + e.what());
    }
}

int run_replay(const ReplayOptions& o) {
    const std::string& file = o.file;
    std::ifstream in(file);
    if (!in) throw UsageError(file + ": cannot be read");
    const Replay replay = in_replay(file, [&] { return read_replay(in); });
    if (o.board_tick) {
        // Only the JSON, so that it can go to a file for `runner check BOT --board FILE`.
        const std::string asked = file + ": --board " + std::to_string(*o.board_tick) + " --seat " + std::to_string(o.seat);
        std::cout << in_replay(asked, [&] { return board_sent(replay, *o.board_tick, o.seat); }) << "\n";
        return 0;
    }
    if (o.generation && (*o.generation < 0 || *o.generation > replay.result.generations))
        throw UsageError("--generation " + std::to_string(*o.generation) + ": the game has generations 0.." +
                         std::to_string(replay.result.generations));
    GenerationCounts counts;  // the same re-simulation serves the check and the page
    const GameResult again = in_replay(file, [&] { return resimulate(replay, counts); });
    std::cout << terminal_line(file) << ": " << terminal_line(replay.header.bots[0]) << " vs "
              << terminal_line(replay.header.bots[1]) << "\n";
    std::cout << "  recorded:    " << describe_result(replay, replay.result) << "\n";
    std::cout << "  resimulated: " << describe_result(replay, again) << "\n";
    print_forfeits(file, replay);
    if (!o.html.empty()) write_output(o.html, viewer_page(replay, counts.counts), "--html");
    if (!o.png.empty())
        write_output(o.png, board_png(board_at(replay, o.generation.value_or(replay.result.generations))), "--png");
    if (!same_result(replay.result, again)) {
        std::cout << "MISMATCH: the replay does not reproduce its recorded result\n";
        return 1;
    }
    std::cout << "OK: the replay reproduces its result\n";
    return 0;
}

}  // namespace

void add_replay(CLI::App& app, Action& run) {
    auto o = std::make_shared<ReplayOptions>();
    CLI::App* cmd = app.add_subcommand("replay", "Re-simulate a replay (exit 1 if its result differs); draw it as a page or a picture");
    cmd->add_option("FILE", o->file, "A replay written by duel --replay or a league")->required();
    cmd->add_option("--html", o->html, "Write a viewer page that plays the game (one self-contained HTML file)");
    CLI::Option* png = cmd->add_option("--png", o->png, "Write a PNG picture of the board");
    cmd->add_option("--generation", o->generation, "The generation --png draws (default: the last)")->needs(png);
    CLI::Option* board = cmd->add_option(
        "--board", o->board_tick,
        "Print only the JSON --seat was sent at this tick (its tick_id, from 0), byte for byte; "
        "runner check BOT --board FILE runs a bot on it");
    board->type_name("TICK")->excludes(png)->excludes("--html");
    cmd->add_option("--seat", o->seat, "The seat --board prints the JSON of (1 or 2)")
        ->check(CLI::Range(1, 2))
        ->capture_default_str()
        ->needs(board);
    cmd->callback([o, &run] { run = [o] { return run_replay(*o); }; });
}

}  // namespace gol::runner::cli
