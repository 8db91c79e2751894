#include "runner/league/time_estimate.hpp"

#include "runner/text/count_text.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <map>
#include <queue>

namespace gol::runner {

namespace {

struct Moves {
    long long count = 0;
    double total_ms = 0;
};

std::string ms_text(double ms) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f ms", ms);
    return buf;
}

// The time from the first game's start to the last one's end when each game goes to the first
// worker free, as a league hands them out.
double spread(const std::vector<double>& games, int jobs) {
    std::priority_queue<double, std::vector<double>, std::greater<>> free_at;
    for (int i = 0; i < std::max(1, jobs); ++i) free_at.push(0);
    double end = 0;
    for (const double g : games) {
        const double start = free_at.top();
        free_at.pop();
        free_at.push(start + g);
        end = std::max(end, start + g);
    }
    return end;
}

}  // namespace

TimeEstimate estimate_time(const std::vector<std::array<std::string, 2>>& to_play,
                           const std::vector<GameRecord>& stored, int generations, int time_limit_ms, int jobs,
                           int time_bank_s) {
    std::map<std::string, Moves> moves;
    double beyond_moves_ms = 0;  // the stored games' time outside their bots' moves
    long long timed_generations = 0;
    int timed_games = 0, generations_played = 0;
    for (const GameRecord& r : stored) {
        generations_played += r.result.generations;
        if (!r.timing) continue;
        double moves_ms = 0;
        for (int s = 0; s < 2; ++s) {
            const MoveTiming& t = (*r.timing)[static_cast<std::size_t>(s)];
            Moves& m = moves[r.bots[static_cast<std::size_t>(s)]];
            m.count += t.moves;
            const double ms = std::chrono::duration<double, std::milli>(t.wall_total).count();
            m.total_ms += ms;
            moves_ms += ms;
        }
        if (!r.when) continue;
        beyond_moves_ms += std::max(0.0, static_cast<double>(r.when->duration.count()) - moves_ms);
        timed_generations += r.result.generations;
        ++timed_games;
    }
    const double per_generation_ms = timed_generations > 0 ? beyond_moves_ms / static_cast<double>(timed_generations) : 0;

    std::map<std::string, double> pace;  // each bot's move, in ms
    std::vector<std::string> unmeasured, measured;
    for (const auto& pair : to_play)
        for (const std::string& bot : pair) {
            if (pace.contains(bot)) continue;
            const auto m = moves.find(bot);
            if (m == moves.end() || m->second.count == 0) {
                pace[bot] = time_limit_ms;
                unmeasured.push_back(bot);
            } else {
                pace[bot] = std::min<double>(time_limit_ms, m->second.total_ms / static_cast<double>(m->second.count));
                measured.push_back(bot + " " + ms_text(pace[bot]) + " (" + count_text(m->second.count, "move") + ")");
            }
        }

    // A bot's moves in one game, in ms: each at its pace, all of them within its bank, as a move
    // gets at most what is left of it (docs/rules.md; a tlv bot's turn is not cut, but one turn
    // is within the estimate's error).
    const auto moves_ms = [&](const std::string& bot) {
        const double all = generations * pace[bot];
        return time_bank_s > 0 ? std::min(all, time_bank_s * 1000.0) : all;
    };
    TimeEstimate e;
    for (const auto& [a, b] : to_play)
        e.game_seconds.push_back((moves_ms(a) + moves_ms(b) + generations * per_generation_ms) / 1000.0);
    e.total_seconds = spread(e.game_seconds, jobs);

    const auto list = [](const std::vector<std::string>& items) {
        std::string out;
        for (const std::string& i : items) out += (out.empty() ? "" : ", ") + i;
        return out;
    };
    e.assumed.push_back("each game runs all " + count_text(generations, "generation") +
                        (stored.empty() ? "" : " (the " + count_text(static_cast<long long>(stored.size()), "stored game") +
                                                   " averaged " + std::to_string(generations_played /
                                                                                 static_cast<int>(stored.size())) + ")") +
                        ", " + std::to_string(std::max(1, jobs)) + " at once (-j)");
    if (!measured.empty()) e.assumed.push_back("a move takes its bot's mean over its stored moves: " + list(measured));
    if (!unmeasured.empty())
        e.assumed.push_back("a move of a bot with no stored moves takes the whole time limit, " +
                            std::to_string(time_limit_ms) + " ms (an upper bound; `runner check BOT` measures one): " +
                            list(unmeasured));
    if (time_bank_s > 0)
        e.assumed.push_back("a bot's moves take at most its time bank, " + std::to_string(time_bank_s) +
                            " s a game, a move at most what is left of it (--time-bank)");
    e.assumed.push_back(timed_games > 0 ? "the runner's own time is " + ms_text(per_generation_ms) +
                                              " a generation, as in " + count_text(timed_games, "stored game")
                                        : "the runner's own time is left out (no stored game says how long it took)");
    return e;
}

}  // namespace gol::runner
