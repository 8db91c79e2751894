// Bradley-Terry ratings on the Elo scale with 95% intervals and the likelihood of superiority
// (docs/league.md, "Ratings"). Pure math: bots are indices, games are scores.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

namespace gol::runner {

// One game between two bots: the first's score, 1 for a win, 0.5 for a draw, 0 for a loss.
struct RatedGame {
    std::size_t first = 0, second = 0;
    double first_score = 0;
};

// The maximum-likelihood fit of P(i beats j) = 1 / (1 + 10^((r_j - r_i) / 400)) to the games,
// with draws as half a win for each side. So that a bot that wins or loses everything against
// someone stays finite, every pair that met gets one virtual draw more (a 3-1 pair is fitted as
// 3.5-1.5). Ratings are fixed only up to a common shift; each group of bots linked by games is
// centred on a mean of 0, and bots without games have no rating.
class Ratings {
public:
    Ratings(std::size_t bots, const std::vector<RatedGame>& games);

    bool rated(std::size_t bot) const;
    double elo(std::size_t bot) const;
    // Half the width of the 95% interval, from the likelihood's curvature (the covariance of the
    // centred ratings is the inverse Hessian's).
    double interval(std::size_t bot) const;
    // The likelihood of superiority: the probability that `a` is the stronger, from the normal
    // approximation of the difference r_a - r_b. None when no chain of games links a and b.
    std::optional<double> superiority(std::size_t a, std::size_t b) const;

private:
    std::vector<int> group_;                // -1 for a bot without games
    std::vector<double> rating_;            // natural units (ln-odds), centred per group
    std::vector<std::vector<double>> cov_;  // covariance of the ratings, natural units, 0 across groups
};

}  // namespace gol::runner
