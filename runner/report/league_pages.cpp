#include "runner/report/league_pages.hpp"

#include "runner/report/leaderboard_page.hpp"
#include "runner/report/viewer_page.hpp"
#include "runner/sys/atomic_file.hpp"

#include <filesystem>
#include <fstream>
#include <memory>

namespace gol::runner {

namespace {

// Viewer pages live in viewers/ beside leaderboard.html.
constexpr std::string_view kLeaderboardFromViewer = "../leaderboard.html";

// Whose line it is: an arena (runner serve, which schedules no games) or a league.
const char* speaker(const LeagueTable& table) { return table.settings.games_per_pair == 0 ? "arena" : "league"; }

// The same from the store's index, read only when there is something to say.
const char* speaker(const ResultsStore& store) {
    try {
        const std::optional<StoredIndex> index = find_index(store.dir());
        return index && index->settings.games_per_pair == 0 ? "arena" : "league";
    } catch (const StoreError&) {
        return "league";
    }
}

}  // namespace

template <typename Page>
void LeaguePages::write_viewer(const ResultsStore& store, const std::string& key, Page page) {
    try {
        write_file_atomically(store.viewer_path(key), page());
        remember(key);
    } catch (const std::exception& e) {
        std::fprintf(log_, "%s: no viewer page for game %s: %s\n", speaker(store), key.c_str(), e.what());
    }
}

void LeaguePages::remember(const std::string& key) {
    const std::lock_guard lock(paged_mutex_);
    paged_.insert(key);
}

bool LeaguePages::remembered(const std::string& key) {
    const std::lock_guard lock(paged_mutex_);
    return paged_.contains(key);
}

void LeaguePages::game_stored(const ResultsStore& store, const GameRecord& record, const PlayedGame& game) {
    write_viewer(store, record.key, [&] { return viewer_page(game.record, game.counts.counts, kLeaderboardFromViewer); });
    if (!live_) return;
    std::unique_lock busy(leaderboard_, std::try_to_lock);
    if (!busy) return;
    try {
        // What a record that does not hold says is said once, by the table of the run's end.
        const std::unique_ptr<std::FILE, int (*)(std::FILE*)> quiet(std::fopen("/dev/null", "w"), &std::fclose);
        if (!quiet) return;
        write_leaderboard(store, table_from_store(store.dir(), std::nullopt, quiet.get()), false);
    } catch (const std::exception& e) {
        std::fprintf(log_, "%s: the leaderboard page after a game: %s\n", speaker(store), e.what());
    }
}

void LeaguePages::write_leaderboard(const ResultsStore& store, const LeagueTable& table, bool say) {
    const std::filesystem::path page = store.dir() / "leaderboard.html";
    try {
        write_file_atomically(page, leaderboard_page(table, store_heading(store.dir())));
        if (say) std::fprintf(log_, "%s: leaderboard page %s\n", speaker(table), page.c_str());
    } catch (const std::exception& e) {
        std::fprintf(log_, "%s: %s: %s\n", speaker(table), page.c_str(), e.what());
    }
}

void LeaguePages::run_finished(const ResultsStore& store, const LeagueTable& table) {
    for (const GameRecord& g : table.games) {
        if (remembered(g.key)) continue;
        if (std::filesystem::exists(store.viewer_path(g.key))) {
            remember(g.key);
            continue;
        }
        std::ifstream in(store.replay_path(g.key));
        if (!in) {
            std::fprintf(log_, "%s: no viewer page for game %s: %s cannot be read\n", speaker(table), g.key.c_str(),
                         store.replay_path(g.key).c_str());
            continue;
        }
        write_viewer(store, g.key, [&] { return viewer_page(read_replay(in), kLeaderboardFromViewer); });
    }
    const std::lock_guard lock(leaderboard_);
    write_leaderboard(store, table, true);
}

}  // namespace gol::runner
