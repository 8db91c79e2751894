// Times the engine: a random soup, scattered gliders, or an RLE pattern, stepped for a number
// of generations. The last line is one JSON object: seconds, generations, cells_final. With
// --work it counts instead of timing (see work_count.hpp): changed_cells and units replace
// seconds.
#include "engine/board.hpp"
#include "rle.hpp"
#include "work_count.hpp"

#include <CLI/CLI.hpp>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>

namespace {

using namespace gol;

void scatter_gliders(Board& board, int count, std::mt19937_64& rng) {
    // The four orientations of a glider in a 3x3 box.
    const std::vector<Cell> shapes[4] = {
        {{0, 1}, {1, 2}, {2, 0}, {2, 1}, {2, 2}},
        {{0, 1}, {1, 0}, {2, 0}, {2, 1}, {2, 2}},
        {{0, 0}, {0, 1}, {0, 2}, {1, 2}, {2, 1}},
        {{0, 0}, {0, 1}, {0, 2}, {1, 0}, {2, 1}},
    };
    for (int placed = 0, tries = 0; placed < count && tries < count * 100; ++tries) {
        const int y = static_cast<int>(rng() % static_cast<unsigned>(std::max(1, board.height() - 4)));
        const int x = static_cast<int>(rng() % static_cast<unsigned>(std::max(1, board.width() - 4)));
        // Keep a clear margin so gliders start apart.
        bool clear = true;
        for (int dy = -2; dy < 5 && clear; ++dy)
            for (int dx = -2; dx < 5 && clear; ++dx) clear = board.at(y + dy, x + dx) == Player::none;
        if (!clear) continue;
        std::vector<Cell> cells;
        for (Cell c : shapes[rng() % 4]) cells.push_back({y + c.y, x + c.x});
        board.place(Player::one, cells);
        ++placed;
    }
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app("Times the Game of Life engine", "engine-bench");
    int width = 1000, height = 1000, generations = 10000, gliders = 0;
    double soup = 0;
    std::uint64_t seed = 1;
    bool two_player = false, work = false;
    std::string rle_file, work_unit = "64x1";
    app.add_option("--width", width, "Board width")->check(CLI::Range(1, Board::max_side))->capture_default_str();
    app.add_option("--height", height, "Board height")->check(CLI::Range(1, Board::max_side))->capture_default_str();
    app.add_option("--generations", generations, "Generations to step")->check(CLI::NonNegativeNumber)->capture_default_str();
    app.add_option("--soup", soup, "Fill with a random soup of this density")->check(CLI::Range(0.0, 1.0));
    app.add_option("--gliders", gliders, "Scatter this many gliders instead")->check(CLI::NonNegativeNumber);
    app.add_option("--seed", seed, "Random seed")->capture_default_str();
    app.add_flag("--two-player", two_player, "Each soup cell belongs to a random player");
    app.add_option("--rle", rle_file, "Load a one-player RLE pattern, top-left at (0, 0)")->check(CLI::ExistingFile);
    app.add_flag("--work", work, "Count the cells that change and the units each step must recompute, instead of timing");
    app.add_option("--work-unit", work_unit, "The unit --work counts, as WIDTHxHEIGHT in cells")->capture_default_str();
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e) == 0 ? 0 : 2;
    }

    int unit_width = 0, unit_height = 0;
    char rest = 0;
    if (std::sscanf(work_unit.c_str(), "%dx%d%c", &unit_width, &unit_height, &rest) != 2 || unit_width < 1 ||
        unit_height < 1) {
        std::fprintf(stderr, "engine-bench: --work-unit %s: expected WIDTHxHEIGHT in cells, such as 64x1\n",
                     work_unit.c_str());
        return 2;
    }

    std::mt19937_64 rng(seed);
    std::vector<Cell> one, two;
    if (!rle_file.empty()) {
        std::ifstream in(rle_file);
        std::stringstream text;
        text << in.rdbuf();
        try {
            one = bench::parse_rle(text.str()).cells;
        } catch (const std::exception& e) {
            std::fprintf(stderr, "engine-bench: %s: %s\n", rle_file.c_str(), e.what());
            return 2;
        }
    }
    Board board(height, width);
    if (soup > 0) {
        std::bernoulli_distribution alive(soup), first(0.5);
        for (int y = 0; y < height; ++y)
            for (int x = 0; x < width; ++x)
                if (alive(rng)) (two_player && !first(rng) ? two : one).push_back({y, x});
    }
    board.place(Player::one, one);
    board.place(Player::two, two);
    if (gliders > 0) scatter_gliders(board, gliders, rng);

    if (work) {
        bench::WorkCount count(height, width, unit_height, unit_width);
        for (int g = 0; g < generations; ++g) {
            count.before_step(board);
            board.step();
        }
        const long long cells = board.population(Player::one) + board.population(Player::two);
        std::printf("%d generations of a %dx%d board: %lld cells changed, %lld units of %dx%d to recompute\n",
                    generations, width, height, static_cast<long long>(count.changed_cells()),
                    static_cast<long long>(count.units()), unit_width, unit_height);
        std::printf("{\"generations\":%d,\"cells_final\":%lld,\"changed_cells\":%lld,\"units\":%lld}\n",
                    generations, cells, static_cast<long long>(count.changed_cells()),
                    static_cast<long long>(count.units()));
        return 0;
    }
    const auto start = std::chrono::steady_clock::now();
    for (int g = 0; g < generations; ++g) board.step();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const long long cells = board.population(Player::one) + board.population(Player::two);
    std::printf("%d generations of a %dx%d board in %.3f s\n", generations, width, height, seconds);
    std::printf("{\"seconds\":%.6f,\"generations\":%d,\"cells_final\":%lld}\n", seconds, generations, cells);
}
