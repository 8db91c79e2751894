#include "runner/league/ratings.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>
#include <numeric>
#include <utility>

namespace gol::runner {

namespace {

constexpr double kEloPerUnit = 400 / std::numbers::ln10;  // natural ln-odds to Elo points
constexpr double kZ95 = 1.959963984540054;                // the normal's 97.5% quantile

using Matrix = std::vector<std::vector<double>>;

// Games between two bots of a group, by their indices in the group, with the virtual draw.
struct Pair {
    std::size_t i, j;
    double games, score_i;
};

// The lower Cholesky factor of a symmetric positive definite matrix: the reduced Hessians are,
// because every group is linked by games and one rating is held fixed.
class Cholesky {
public:
    explicit Cholesky(Matrix a) : l_(std::move(a)) {
        const std::size_t n = l_.size();
        for (std::size_t c = 0; c < n; ++c) {
            for (std::size_t k = 0; k < c; ++k) l_[c][c] -= l_[c][k] * l_[c][k];
            l_[c][c] = std::sqrt(l_[c][c]);
            for (std::size_t r = c + 1; r < n; ++r) {
                for (std::size_t k = 0; k < c; ++k) l_[r][c] -= l_[r][k] * l_[c][k];
                l_[r][c] /= l_[c][c];
            }
        }
    }

    std::vector<double> solve(std::vector<double> b) const {
        const std::size_t n = l_.size();
        for (std::size_t r = 0; r < n; ++r) {
            for (std::size_t k = 0; k < r; ++k) b[r] -= l_[r][k] * b[k];
            b[r] /= l_[r][r];
        }
        for (std::size_t r = n; r-- > 0;) {
            for (std::size_t k = r + 1; k < n; ++k) b[r] -= l_[k][r] * b[k];
            b[r] /= l_[r][r];
        }
        return b;
    }

private:
    Matrix l_;
};

// The negative log-likelihood of the group's ratings.
double cost(const std::vector<Pair>& pairs, const std::vector<double>& beta) {
    double f = 0;
    for (const Pair& p : pairs) {
        const double d = beta[p.i] - beta[p.j];
        // -log P(win) = log(1 + e^-d), written to stay finite for large |d|.
        const auto nll = [](double x) { return x > 0 ? std::log1p(std::exp(-x)) : -x + std::log1p(std::exp(x)); };
        f += p.score_i * nll(d) + (p.games - p.score_i) * nll(-d);
    }
    return f;
}

// Gradient and Hessian of the cost over the first k - 1 ratings (the last is held at 0).
std::pair<std::vector<double>, Matrix> derivatives(const std::vector<Pair>& pairs, const std::vector<double>& beta) {
    const std::size_t free = beta.size() - 1;
    std::vector<double> g(free, 0);
    Matrix h(free, std::vector<double>(free, 0));
    for (const Pair& p : pairs) {
        const double prob = 1 / (1 + std::exp(-(beta[p.i] - beta[p.j])));  // that i wins
        const double gi = p.games * prob - p.score_i, w = p.games * prob * (1 - prob);
        if (p.i < free) g[p.i] += gi, h[p.i][p.i] += w;
        if (p.j < free) g[p.j] -= gi, h[p.j][p.j] += w;
        if (p.i < free && p.j < free) h[p.i][p.j] -= w, h[p.j][p.i] -= w;
    }
    return {std::move(g), std::move(h)};
}

// Newton's method with step halving; the cost is convex, so it converges from 0.
std::vector<double> fit(const std::vector<Pair>& pairs, std::size_t k) {
    std::vector<double> beta(k, 0);
    for (int iteration = 0; iteration < 100; ++iteration) {
        auto [g, h] = derivatives(pairs, beta);
        for (double& x : g) x = -x;
        const std::vector<double> step = Cholesky(std::move(h)).solve(std::move(g));
        const double before = cost(pairs, beta);
        double t = 1;
        std::vector<double> next = beta;
        for (int halving = 0; halving < 50; ++halving, t /= 2) {
            for (std::size_t i = 0; i < step.size(); ++i) next[i] = beta[i] + t * step[i];
            if (cost(pairs, next) <= before) break;
        }
        double largest = 0;
        for (std::size_t i = 0; i < step.size(); ++i) largest = std::max(largest, std::abs(next[i] - beta[i]));
        beta = std::move(next);
        if (largest < 1e-12) break;
    }
    return beta;
}

}  // namespace

Ratings::Ratings(std::size_t bots, const std::vector<RatedGame>& games)
    : group_(bots, -1), rating_(bots, 0), cov_(bots, std::vector<double>(bots, 0)) {
    // Each pair's games and first-listed bot's score, then the groups linked by games.
    std::map<std::pair<std::size_t, std::size_t>, std::pair<double, double>> met;
    std::vector<std::size_t> parent(bots);
    std::iota(parent.begin(), parent.end(), 0);
    const auto root = [&](std::size_t b) {
        while (parent[b] != b) b = parent[b] = parent[parent[b]];
        return b;
    };
    for (const RatedGame& g : games) {
        if (g.first == g.second) continue;
        const bool ordered = g.first < g.second;
        auto& [n, score] = met[std::minmax(g.first, g.second)];
        n += 1;
        score += ordered ? g.first_score : 1 - g.first_score;
        parent[root(g.first)] = root(g.second);
    }
    std::vector<bool> played(bots, false);
    for (const auto& [pair, _] : met) played[pair.first] = played[pair.second] = true;
    std::map<std::size_t, std::vector<std::size_t>> members;
    for (std::size_t b = 0; b < bots; ++b)
        if (played[b]) members[root(b)].push_back(b);

    int next_group = 0;
    for (const auto& [_, group] : members) {
        const std::size_t k = group.size();
        std::map<std::size_t, std::size_t> local;
        for (std::size_t i = 0; i < k; ++i) local[group[i]] = i, group_[group[i]] = next_group;
        ++next_group;
        std::vector<Pair> pairs;
        for (const auto& [pair, result] : met)
            if (local.contains(pair.first))
                pairs.push_back({local[pair.first], local[pair.second], result.first + 1, result.second + 0.5});

        const std::vector<double> beta = fit(pairs, k);
        // Covariance with the last rating held at 0 (inverse of the reduced Hessian), then of
        // the ratings centred on their mean: P C P with P = I - 1/k.
        const std::size_t free = k - 1;
        const Cholesky h(derivatives(pairs, beta).second);
        Matrix c(k, std::vector<double>(k, 0));
        for (std::size_t col = 0; col < free; ++col) {
            std::vector<double> unit(free, 0);
            unit[col] = 1;
            const std::vector<double> x = h.solve(std::move(unit));
            for (std::size_t row = 0; row < free; ++row) c[row][col] = x[row];
        }
        std::vector<double> row_mean(k, 0);
        double mean_all = 0, mean_beta = 0;
        for (std::size_t i = 0; i < k; ++i) {
            for (std::size_t j = 0; j < k; ++j) row_mean[i] += c[i][j] / static_cast<double>(k);
            mean_all += row_mean[i] / static_cast<double>(k);
            mean_beta += beta[i] / static_cast<double>(k);
        }
        for (std::size_t i = 0; i < k; ++i) {
            rating_[group[i]] = beta[i] - mean_beta;
            for (std::size_t j = 0; j < k; ++j)
                cov_[group[i]][group[j]] = c[i][j] - row_mean[i] - row_mean[j] + mean_all;
        }
    }
}

bool Ratings::rated(std::size_t bot) const { return group_[bot] >= 0; }

double Ratings::elo(std::size_t bot) const { return rating_[bot] * kEloPerUnit; }

double Ratings::interval(std::size_t bot) const { return kZ95 * std::sqrt(cov_[bot][bot]) * kEloPerUnit; }

std::optional<double> Ratings::superiority(std::size_t a, std::size_t b) const {
    if (!rated(a) || !rated(b) || group_[a] != group_[b]) return std::nullopt;
    if (a == b) return 0.5;
    const double variance = cov_[a][a] + cov_[b][b] - 2 * cov_[a][b];
    return 0.5 * std::erfc(-(rating_[a] - rating_[b]) / std::sqrt(2 * variance));
}

}  // namespace gol::runner
