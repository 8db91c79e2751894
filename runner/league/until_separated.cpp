#include "runner/league/until_separated.hpp"

#include "runner/game/replay.hpp"
#include "runner/text/terminal_text.hpp"

#include <algorithm>
#include <fstream>
#include <map>
#include <set>

namespace gol::runner {

namespace {

// A pair in name order: the table names it upper bot first, and may swap it from one round to the next.
AddedPair by_name(const AddedPair& p) { return p[0] < p[1] ? p : AddedPair{p[1], p[0]}; }

std::string pair_name(const AddedPair& p) { return terminal_line(p[0]) + " vs " + terminal_line(p[1]); }

// Whether a pair's stored games repeat themselves: at least two in each seat order, and those with
// the same seats identical move for move (their stored replays), each replay read once. A replay
// that cannot be read leaves it unknown, so the pair is not called deterministic.
class PairReplays {
public:
    // Takes in the pair's games among `games` not looked at before; `games` only grows.
    void update(const ResultsStore& store, const std::vector<GameRecord>& games, const AddedPair& pair) {
        for (; seen_ < games.size() && !differs_; ++seen_) {
            const GameRecord& r = games[seen_];
            if (by_name(r.bots) != by_name(pair)) continue;
            std::ifstream in(store.replay_path(r.key));
            Replay replay;
            try {
                replay = read_replay(in);
            } catch (const std::exception&) {
                differs_ = true;
                return;
            }
            SeatOrder& order = orders_[r.bots[0]];
            if (order.games++ == 0) order.ticks = std::move(replay.ticks);
            else if (replay.ticks != order.ticks) differs_ = true;
        }
    }

    bool repeats_itself() const {
        return !differs_ && orders_.size() == 2 &&
               std::all_of(orders_.begin(), orders_.end(), [](const auto& o) { return o.second.games >= 2; });
    }

private:
    struct SeatOrder {
        std::vector<std::array<Move, 2>> ticks;  // its first game's
        int games = 0;
    };
    std::map<std::string, SeatOrder> orders_;  // by the bot in seat 1
    std::size_t seen_ = 0;                     // of the games, those looked at
    bool differs_ = false;                     // or a replay could not be read
};

// Whether `bot`, shown again the boards of its first game among `games` whose replay reads, made
// the same moves: the store's check when it holds for these games, else asked now (o.ask_again)
// and kept in the store; false when no game could be shown. nullopt when the run stopped meanwhile.
std::optional<bool> repeats_when_asked(const SeparationOptions& o, ResultsStore& store,
                                       const std::vector<GameRecord>& games, const std::string& bot, std::FILE* log) {
    const std::string& hash = o.hashes.at(bot);
    const std::optional<RepeatCheck> kept = store.load_repeat(hash);
    // A check on a game of another league (other settings) does not hold here.
    if (kept && std::any_of(games.begin(), games.end(), [&](const GameRecord& r) { return r.key == kept->game; }))
        return kept->repeats;
    for (const GameRecord& r : games) {
        const int seat = r.bots[0] == bot ? 1 : r.bots[1] == bot ? 2 : 0;
        if (seat == 0) continue;
        std::ifstream in(store.replay_path(r.key));
        Replay replay;
        try {
            replay = read_replay(in);
        } catch (const std::exception&) {
            continue;
        }
        std::optional<RepeatCheck> asked = o.ask_again(bot, replay, seat);
        if (!asked) return std::nullopt;
        asked->bot = bot;
        asked->hash = hash;
        asked->game = r.key;
        asked->seat = seat;
        store.save_repeat(*asked);
        const std::string boards = asked->ticks == 1 ? "board" : std::to_string(asked->ticks) + " boards";
        std::fprintf(log, "league: --until-separated: %s, shown again its first %s of game %s with another seed, %s\n",
                     terminal_line(bot).c_str(), boards.c_str(), r.key.substr(0, 12).c_str(),
                     asked->repeats ? "made the same moves" : ("did not: " + terminal_line(asked->why)).c_str());
        return asked->repeats;
    }
    return false;
}

}  // namespace

void play_until_separated(const SeparationOptions& o, std::span<const ScheduledGame> schedule,
                          ResultsStore& store, const PlayRound& play_round, std::FILE* log) {
    // Every stored game of the league so far, in the order its index lists them, as `runner
    // table` counts them; each round adds its own.
    LeagueTable table;
    const auto take_in = [&](std::span<const ScheduledGame> games) {
        for (GameRecord& r : table_records(store.dir(), games, log)) table.games.push_back(std::move(r));
    };
    take_in(schedule);
    std::vector<AddedPair> added;
    std::set<AddedPair> deterministic;        // by_name
    std::map<AddedPair, PairReplays> replays;  // by_name
    // Whether each bot asked so far repeated itself: asked once, kept in the store.
    std::map<std::string, bool> repeats;
    const auto bot_repeats = [&](const std::string& bot) -> std::optional<bool> {
        if (const auto known = repeats.find(bot); known != repeats.end()) return known->second;
        const std::optional<bool> r = repeats_when_asked(o, store, table.games, bot, log);
        if (r) repeats[bot] = *r;
        return r;
    };
    const auto settle = [&](const AddedPair& pair, const char* because) {
        deterministic.insert(by_name(pair));
        std::fprintf(log, "league: --until-separated: %s is deterministic: %s; no more games for it\n",
                     pair_name(pair).c_str(), because);
    };
    int budget = o.budget;
    std::string end;
    for (int round = 1;; ++round) {
        table.standings = compute_standings(o.bots, table.games, o.scoring);
        std::vector<std::pair<AddedPair, double>> uncertain;  // with the upper's LOS over the lower
        // Neighbours in rating order, not the scoring's: a bot given more games collects more
        // wins, and would climb a table of wins past a stronger bot it was never compared with.
        for (const RatedNeighbours& n : rating_neighbours(table)) {
            const AddedPair pair{n.upper, n.lower};
            // A gauntlet plays only its bot's pairs.
            if (!o.gauntlet.empty() && pair[0] != o.gauntlet && pair[1] != o.gauntlet) continue;
            if (!n.los || *n.los <= 0.05 || *n.los >= 0.95) continue;
            if (deterministic.count(by_name(pair))) continue;
            PairReplays& seen = replays[by_name(pair)];
            seen.update(store, table.games, pair);
            if (seen.repeats_itself()) {
                settle(pair, "its games with the same seats were identical move for move");
                continue;
            }
            if (o.ask_again) {
                const std::optional<bool> upper = bot_repeats(pair[0]);
                const std::optional<bool> lower = upper && *upper ? bot_repeats(pair[1]) : upper;
                if (!lower) return;
                if (*lower) {
                    settle(pair, "both bots, shown again the boards of a game with another seed, made the same moves");
                    continue;
                }
            }
            uncertain.emplace_back(pair, *n.los);
        }
        if (uncertain.empty()) {
            end = "every adjacent pair is separated or deterministic";
            break;
        }
        if (budget < 2) {
            end = "budget spent; still uncertain: ";
            for (std::size_t i = 0; i < uncertain.size(); ++i)
                end += (i ? ", " : "") + pair_name(uncertain[i].first) + " (LOS " + format_los(uncertain[i].second) + ")";
            break;
        }
        uncertain.resize(std::min<std::size_t>(uncertain.size(), static_cast<std::size_t>(budget / 2)));
        std::string pairs;
        for (const auto& [pair, los] : uncertain) {
            added.push_back(pair);
            pairs += (pairs.empty() ? "" : ", ") + pair_name(pair) + " (LOS " + format_los(los) + ")";
        }
        const int games = 2 * static_cast<int>(uncertain.size());
        budget -= games;
        std::fprintf(log, "league: --until-separated: round %d: 2 more games each for %s; %d of %d left\n", round,
                     pairs.c_str(), budget, o.budget);
        const std::optional<std::vector<ScheduledGame>> played = play_round(added, games);
        if (!played) return;
        take_in(*played);
    }
    std::map<AddedPair, int> per_pair;  // in name order
    for (const AddedPair& p : added) per_pair[by_name(p)] += 2;
    std::string counts;
    for (const auto& [pair, games] : per_pair) counts += (counts.empty() ? "" : ", ") + pair_name(pair) + " " + std::to_string(games);
    std::fprintf(log, "league: --until-separated: added %zu games%s%s%s; %s\n", 2 * added.size(),
                 counts.empty() ? "" : " (", counts.c_str(), counts.empty() ? "" : ")", end.c_str());
}

}  // namespace gol::runner
