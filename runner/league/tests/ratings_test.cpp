#include "runner/league/ratings.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <vector>

using namespace gol::runner;

namespace {

// `n` games that `first` wins (score 1), draws (0.5) or loses (0) against `second`.
void add(std::vector<RatedGame>& games, std::size_t first, std::size_t second, double score, int n = 1) {
    for (int i = 0; i < n; ++i) games.push_back({first, second, score});
}

}  // namespace

TEST_CASE("ratings: two bots 3-1 are 400 log10(3.5 / 1.5) apart, with the virtual draw") {
    std::vector<RatedGame> games;
    add(games, 0, 1, 1, 2);
    add(games, 1, 0, 0);  // seats swapped: still a win for bot 0
    add(games, 0, 1, 0);
    const Ratings r(2, games);
    const double expected = 400 * std::log10(3.5 / 1.5);
    CHECK(r.elo(0) - r.elo(1) == doctest::Approx(expected));
    CHECK(r.elo(0) + r.elo(1) == doctest::Approx(0).epsilon(1e-9));
    // The Hessian of 5 games at p = 0.7: variance of the difference 1 / (5 * 0.7 * 0.3) in
    // ln-odds, a quarter of it for each centred rating.
    const double sd_each = std::sqrt(1 / (5 * 0.7 * 0.3)) / 2 * 400 / std::log(10.0);
    CHECK(r.interval(0) == doctest::Approx(1.959963984540054 * sd_each));
    CHECK(r.interval(1) == doctest::Approx(r.interval(0)));
}

TEST_CASE("ratings: draws count half a win") {
    std::vector<RatedGame> games;
    add(games, 0, 1, 1);
    add(games, 0, 1, 0.5, 2);  // 2-1 with the draws, 2.5-1.5 with the virtual one
    const Ratings r(2, games);
    CHECK(r.elo(0) - r.elo(1) == doctest::Approx(400 * std::log10(2.5 / 1.5)));
}

TEST_CASE("ratings: a cycle of equal bots rates all at 0, each even with the next") {
    std::vector<RatedGame> games;
    add(games, 0, 1, 1, 2);
    add(games, 1, 2, 1, 2);
    add(games, 2, 0, 1, 2);
    const Ratings r(3, games);
    for (std::size_t b = 0; b < 3; ++b) {
        CHECK(r.elo(b) == doctest::Approx(0).epsilon(1e-9));
        CHECK(*r.superiority(b, (b + 1) % 3) == doctest::Approx(0.5));
    }
}

TEST_CASE("ratings: a bot that wins everything stays finite and on top") {
    std::vector<RatedGame> games;
    add(games, 0, 1, 1, 20);
    add(games, 0, 2, 1, 20);
    add(games, 1, 2, 1, 3);
    add(games, 2, 1, 1, 3);
    const Ratings r(3, games);
    CHECK(std::isfinite(r.elo(0)));
    CHECK(std::isfinite(r.interval(0)));
    CHECK(r.elo(0) > r.elo(1));
    CHECK(r.elo(1) == doctest::Approx(r.elo(2)));
    // 20.5-0.5 against each of two equal bots: 400 log10(41) above them.
    CHECK(r.elo(0) - r.elo(1) == doctest::Approx(400 * std::log10(41.0)));
    CHECK(*r.superiority(0, 1) > 0.99);
}

TEST_CASE("ratings: likelihood of superiority is symmetric and follows the ratings") {
    std::vector<RatedGame> games;
    add(games, 0, 1, 1, 3);
    add(games, 1, 0, 1);
    add(games, 1, 2, 0.5, 2);
    add(games, 2, 0, 1);
    const Ratings r(3, games);
    for (std::size_t a = 0; a < 3; ++a)
        for (std::size_t b = 0; b < 3; ++b) {
            CAPTURE(a);
            CAPTURE(b);
            CHECK(*r.superiority(a, b) + *r.superiority(b, a) == doctest::Approx(1));
            CHECK((*r.superiority(a, b) > 0.5) == (r.elo(a) > r.elo(b) + 1e-9));
        }
}

TEST_CASE("ratings: intervals shrink with more games") {
    double last = INFINITY;
    for (int n : {1, 4, 16, 64}) {
        std::vector<RatedGame> games;
        add(games, 0, 1, 1, 2 * n);
        add(games, 0, 1, 0, n);
        const Ratings r(2, games);
        CAPTURE(n);
        CHECK(r.interval(0) < last);
        last = r.interval(0);
    }
}

TEST_CASE("ratings: bots without games have no rating, unlinked groups are not compared") {
    std::vector<RatedGame> games;
    add(games, 0, 1, 1);
    add(games, 2, 3, 0.5);
    const Ratings r(5, games);
    CHECK(!r.rated(4));
    CHECK(!r.superiority(0, 4));
    CHECK(!r.superiority(1, 2));
    CHECK(r.superiority(0, 1).has_value());
    // Each group centred on 0 by itself.
    CHECK(r.elo(0) + r.elo(1) == doctest::Approx(0).epsilon(1e-9));
    CHECK(r.elo(2) == doctest::Approx(0).epsilon(1e-9));
}
