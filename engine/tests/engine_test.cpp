#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include "engine/board.hpp"
#include "reference.hpp"

#include <doctest/doctest.h>

#include <random>
#include <string>

using namespace gol;
using gol::testing::ReferenceBoard;

namespace {

std::vector<Cell> cells_of(std::initializer_list<std::pair<int, int>> yx) {
    std::vector<Cell> out;
    for (auto [y, x] : yx) out.push_back({y, x});
    return out;
}

std::vector<Cell> shifted(const std::vector<Cell>& cells, int dy, int dx) {
    std::vector<Cell> out;
    for (Cell c : cells) out.push_back({c.y + dy, c.x + dx});
    return out;
}

std::vector<Cell> live_of(const Board& b, Player p) {
    std::vector<LiveCell> all;
    b.live_cells(all);
    std::vector<Cell> out;
    for (const LiveCell& c : all)
        if (c.owner == p) out.push_back({c.y, c.x});
    return out;
}

// Cell-by-cell comparison with the reference, plus the populations and live_cells' order.
void require_same(const Board& fast, const ReferenceBoard& ref, const std::string& where) {
    INFO(where);
    std::vector<LiveCell> live;
    fast.live_cells(live);
    std::size_t k = 0;
    for (int y = 0; y < fast.height(); ++y)
        for (int x = 0; x < fast.width(); ++x) {
            const int want = ref.at(y, x);
            REQUIRE(static_cast<int>(fast.at(y, x)) == want);
            if (want) {
                REQUIRE(k < live.size());
                REQUIRE(live[k] == LiveCell{y, x, static_cast<Player>(want)});
                ++k;
            }
        }
    REQUIRE(k == live.size());
    REQUIRE(fast.population(Player::one) == ref.population(1));
    REQUIRE(fast.population(Player::two) == ref.population(2));
}

const auto kGlider = cells_of({{0, 1}, {1, 2}, {2, 0}, {2, 1}, {2, 2}});  // moving down and right

}  // namespace

TEST_CASE("board: sizes out of range are refused with a clear message") {
    CHECK_THROWS_WITH_AS(Board(0, 5), doctest::Contains("out of range"), std::invalid_argument);
    CHECK_THROWS_AS(Board(5, 0), std::invalid_argument);
    CHECK_THROWS_AS(Board(4097, 5), std::invalid_argument);
    CHECK_THROWS_AS(Board(5, 4097), std::invalid_argument);
    CHECK_NOTHROW(Board(4096, 4096));
    CHECK_NOTHROW(Board(1, 1));
}

TEST_CASE("board: placement skips off-board, occupied and repeated cells") {
    Board b(4, 70);
    CHECK(b.place(Player::one, cells_of({{0, 0}, {0, 0}, {-1, 3}, {4, 0}, {0, 70}, {3, 69}})) == 2);
    CHECK(b.place(Player::two, cells_of({{0, 0}, {1, 64}})) == 1);
    CHECK(b.at(0, 0) == Player::one);
    CHECK(b.at(3, 69) == Player::one);
    CHECK(b.at(1, 64) == Player::two);
    CHECK(b.at(-1, 0) == Player::none);
    CHECK(b.at(0, 70) == Player::none);
    CHECK(b.population(Player::one) == 2);
    CHECK(b.population(Player::two) == 1);
}

TEST_CASE("board: placement reports the cells it applied, in request order") {
    Board b(4, 4);
    b.place(Player::two, cells_of({{1, 1}}));
    std::vector<Cell> applied = {{9, 9}};  // appended to, not replaced
    CHECK(b.place(Player::one, cells_of({{-1, 0}, {1, 1}, {3, 3}, {0, 0}, {0, 0}, {3, 4}}), &applied) == 2);
    CHECK(applied == std::vector<Cell>{{9, 9}, {3, 3}, {0, 0}});
}

TEST_CASE("patterns: block is still, blinker has period 2") {
    Board b(10, 10);
    b.place(Player::one, cells_of({{1, 1}, {1, 2}, {2, 1}, {2, 2}}));
    b.place(Player::two, cells_of({{6, 5}, {6, 6}, {6, 7}}));
    const auto block = live_of(b, Player::one);
    b.step();
    CHECK(live_of(b, Player::one) == block);
    CHECK(live_of(b, Player::two) == cells_of({{5, 6}, {6, 6}, {7, 6}}));
    b.step();
    CHECK(live_of(b, Player::one) == block);
    CHECK(live_of(b, Player::two) == cells_of({{6, 5}, {6, 6}, {6, 7}}));
}

TEST_CASE("patterns: a glider moves one cell diagonally every 4 generations, across word edges") {
    Board b(200, 200);
    b.place(Player::one, shifted(kGlider, 10, 55));
    for (int k = 1; k <= 30; ++k) {
        for (int i = 0; i < 4; ++i) b.step();
        REQUIRE(live_of(b, Player::one) == shifted(kGlider, 10 + k, 55 + k));
    }
}

TEST_CASE("patterns: a glider meeting the edge ends as on Golly's bounded plane") {
    // `bgolly -a QuickLife -m 60` on this glider in a 10x10 bounded plane (RLE rule
    // B3/S23:P10,10) prints populations 5 through generation 20, then 4, 3, and 4 from
    // generation 23 on; its final pattern is a block (2o$2o!), here in the corner.
    Board b(10, 10);
    b.place(Player::one, shifted(kGlider, 2, 2));
    std::vector<std::int64_t> population;
    for (int i = 0; i < 60; ++i) {
        b.step();
        population.push_back(b.population(Player::one));
    }
    for (int g = 1; g <= 20; ++g) CHECK(population[g - 1] == 5);
    CHECK(population[20] == 4);
    CHECK(population[21] == 3);
    for (int g = 23; g <= 60; ++g) CHECK(population[g - 1] == 4);
    CHECK(live_of(b, Player::one) == cells_of({{8, 8}, {8, 9}, {9, 8}, {9, 9}}));
}

// Expected cells from Golly: the same board as a bounded plane, `bgolly -a QuickLife -m 40 -o
// out.rle`, with a block in the top-right corner as a fixed point (bgolly writes only the
// result's bounding box). For 16 x 8 its output is `x = 10, y = 8 ... 8b2o$8b2o5$2o$2o!`.
TEST_CASE("patterns: a glider meeting an edge or a corner ends where Golly puts it") {
    const auto marker = cells_of({{0, 14}, {0, 15}, {1, 14}, {1, 15}});
    SUBCASE("the bottom edge: 16 x 8, rule B3/S23:P16,8") {
        Board b(8, 16);
        b.place(Player::one, kGlider);
        b.place(Player::one, marker);
        for (int g = 0; g < 40; ++g) b.step();
        CHECK(live_of(b, Player::one) == cells_of({{0, 14}, {0, 15}, {1, 14}, {1, 15}, {6, 6}, {6, 7}, {7, 6}, {7, 7}}));
    }
    SUBCASE("a corner: 12 x 12, rule B3/S23:P12,12") {
        Board b(12, 12);
        b.place(Player::one, kGlider);
        b.place(Player::one, shifted(marker, 0, -4));
        for (int g = 0; g < 40; ++g) b.step();
        CHECK(live_of(b, Player::one) ==
              cells_of({{0, 10}, {0, 11}, {1, 10}, {1, 11}, {10, 10}, {10, 11}, {11, 10}, {11, 11}}));
    }
}

TEST_CASE("two players: a birth is blocked by a single enemy neighbour") {
    Board b(5, 5);
    // Three of player one around (2, 2) would give it birth...
    b.place(Player::one, cells_of({{1, 1}, {1, 2}, {1, 3}}));
    // ...but one enemy neighbour of (2, 2) forbids it.
    b.place(Player::two, cells_of({{3, 2}}));
    b.step();
    CHECK(b.at(2, 2) == Player::none);
    CHECK(b.at(0, 2) == Player::one);  // born above: no enemy there
}

TEST_CASE("two players: survival ignores enemy neighbours") {
    Board b(6, 6);
    b.place(Player::one, cells_of({{2, 2}, {2, 3}, {3, 2}, {3, 3}}));         // a block
    b.place(Player::two, cells_of({{1, 1}, {1, 4}, {4, 1}, {4, 4}, {1, 2}}));  // crowding it
    b.step();
    for (auto [y, x] : {std::pair{2, 2}, {2, 3}, {3, 2}, {3, 3}}) CHECK(b.at(y, x) == Player::one);
}

TEST_CASE("two players: an empty cell with three of each stays empty") {
    Board b(5, 5);
    b.place(Player::one, cells_of({{1, 1}, {1, 2}, {1, 3}}));
    b.place(Player::two, cells_of({{3, 1}, {3, 2}, {3, 3}}));
    b.step();
    CHECK(b.at(2, 2) == Player::none);
    CHECK(b.at(2, 1) == Player::none);
}

TEST_CASE("differential: the fast engine matches the reference on thousands of random boards") {
    std::mt19937 rng(2016);
    const int sizes[] = {1, 2, 3, 7, 8, 9, 17, 63, 64, 65, 127, 128, 129, 130};
    for (int round = 0; round < 2500; ++round) {
        const int h = sizes[rng() % std::size(sizes)], w = sizes[rng() % std::size(sizes)];
        Board fast(h, w);
        ReferenceBoard ref(h, w);
        const double density = std::uniform_real_distribution<double>(0.05, 0.6)(rng);
        const bool two_players = rng() % 4 != 0;
        auto sprinkle = [&](double d) {
            for (int p = 1; p <= (two_players ? 2 : 1); ++p) {
                std::vector<Cell> cells;
                for (int y = 0; y < h; ++y)
                    for (int x = 0; x < w; ++x)
                        if (std::bernoulli_distribution(d / (two_players ? 2 : 1))(rng)) cells.push_back({y, x});
                // Every edge and corner, now and then.
                if (rng() % 3 == 0)
                    for (Cell c : {Cell{0, 0}, Cell{0, w - 1}, Cell{h - 1, 0}, Cell{h - 1, w - 1}, Cell{0, w / 2},
                                   Cell{h - 1, w / 2}, Cell{h / 2, 0}, Cell{h / 2, w - 1}})
                        cells.push_back(c);
                REQUIRE(fast.place(static_cast<Player>(p), cells) == ref.place(p, cells));
            }
        };
        sprinkle(density);
        const int generations = 1 + static_cast<int>(rng() % 12);
        for (int g = 0; g < generations; ++g) {
            fast.step();
            ref.step();
            // Placements between steps, as moves do.
            if (rng() % 3 == 0) sprinkle(0.02);
        }
        require_same(fast, ref, std::to_string(h) + "x" + std::to_string(w) + " round " + std::to_string(round));
    }
}

TEST_CASE("differential: long runs where most of the board has settled") {
    // Change tracking skips quiet tiles; long runs check that nothing that should move is skipped.
    std::mt19937 rng(7);
    for (int round = 0; round < 12; ++round) {
        const int h = 100 + static_cast<int>(rng() % 60), w = 100 + static_cast<int>(rng() % 100);
        Board fast(h, w);
        ReferenceBoard ref(h, w);
        for (int p = 1; p <= 2; ++p) {
            std::vector<Cell> cells;
            for (int y = 0; y < h; ++y)
                for (int x = 0; x < w; ++x)
                    if (rng() % 100 < 18) cells.push_back({y, x});
            fast.place(static_cast<Player>(p), cells);
            ref.place(p, cells);
        }
        for (int g = 0; g < 300; ++g) {
            fast.step();
            ref.step();
            if (g % 7 == 3) {
                // Moves as bots make them: up to 30 cells each, anywhere.
                for (int p = 1; p <= 2; ++p) {
                    std::vector<Cell> move;
                    for (int k = 0; k < 30; ++k)
                        move.push_back({static_cast<int>(rng() % h), static_cast<int>(rng() % w)});
                    REQUIRE(fast.place(static_cast<Player>(p), move) == ref.place(p, move));
                }
            }
            if (g % 50 == 49) {
                std::vector<Cell> more = {{static_cast<int>(rng() % h), static_cast<int>(rng() % w)}};
                more = shifted(kGlider, more[0].y % (h - 3), more[0].x % (w - 3));
                fast.place(Player::two, more);
                ref.place(2, more);
            }
        }
        require_same(fast, ref, "long run " + std::to_string(round));
    }
}
