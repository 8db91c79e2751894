#include "runner/report/league_pages.hpp"

#include "runner/report/leaderboard_page.hpp"
#include "runner/report/viewer_page.hpp"
#include "runner/sys/atomic_file.hpp"

#include <filesystem>
#include <fstream>

namespace gol::runner {

namespace {

// Viewer pages live in viewers/ beside leaderboard.html.
constexpr std::string_view kLeaderboardFromViewer = "../leaderboard.html";

}  // namespace

template <typename Page>
void LeaguePages::write_viewer(const ResultsStore& store, const std::string& key, Page page) {
    try {
        write_file_atomically(store.viewer_path(key), page());
    } catch (const std::exception& e) {
        std::fprintf(log_, "league: no viewer page for game %s: %s\n", key.c_str(), e.what());
    }
}

void LeaguePages::game_stored(const ResultsStore& store, const GameRecord& record, const PlayedGame& game) {
    write_viewer(store, record.key, [&] { return viewer_page(game.record, game.counts.counts, kLeaderboardFromViewer); });
}

void LeaguePages::run_finished(const ResultsStore& store, const LeagueTable& table) {
    for (const GameRecord& g : table.games) {
        if (std::filesystem::exists(store.viewer_path(g.key))) continue;
        std::ifstream in(store.replay_path(g.key));
        if (!in) {
            std::fprintf(log_, "league: no viewer page for game %s: %s cannot be read\n", g.key.c_str(),
                         store.replay_path(g.key).c_str());
            continue;
        }
        write_viewer(store, g.key, [&] { return viewer_page(read_replay(in), kLeaderboardFromViewer); });
    }
    const std::filesystem::path page = store.dir() / "leaderboard.html";
    try {
        write_file_atomically(
            page, leaderboard_page(table, store_heading(store.dir())));
        std::fprintf(log_, "league: leaderboard page %s\n", page.c_str());
    } catch (const std::exception& e) {
        std::fprintf(log_, "league: %s: %s\n", page.c_str(), e.what());
    }
}

}  // namespace gol::runner
