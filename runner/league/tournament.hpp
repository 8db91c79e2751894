// Tournament files: a league's settings in JSON (see docs/league.md).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace gol::runner {

struct TournamentError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// A bot fetched from a contestant's git repository (docs/league.md, "Bots from git
// repositories"): its folder's name in the bots folder, the URL and the branch.
struct TournamentRepository {
    std::string name, url, branch;

    bool operator==(const TournamentRepository&) const = default;
};

// Every field is optional; what a file leaves out, flags or defaults decide.
struct Tournament {
    std::filesystem::path file;
    std::optional<std::filesystem::path> bots;  // resolved against the file's folder
    std::optional<int> width, height, generations, time_limit_ms, memory_limit_mb, cpu_limit_s, startup_limit_ms,
        time_bank_s, games_per_pair;
    std::optional<std::string> scoring, time_mode;
    std::optional<std::uint64_t> seed;
    // What the league's flags of the same names say: -j, --sandbox/--no-sandbox, --cold,
    // --until-separated, --format, --cache (resolved against the file's folder).
    std::optional<int> jobs, until_separated;
    std::optional<bool> sandbox, cold;
    std::optional<std::string> format;
    std::optional<std::filesystem::path> cache;
    // Interpreter folders (bot_build.hpp's Interpreters), absolute or against the file's folder.
    std::optional<std::vector<std::filesystem::path>> interpreters;
    // Bots from git repositories, fetched into the bots folder by `runner import --repositories`.
    std::optional<std::vector<TournamentRepository>> repositories;

    // tournaments/NAME.json keeps its results in tournaments/NAME/.
    std::filesystem::path results_dir() const;
};

// Throws TournamentError naming the file, the field and what is allowed.
Tournament read_tournament(const std::filesystem::path& file);

// The file's text, as read_tournament() checks it.
Tournament parse_tournament(std::string_view text, const std::filesystem::path& file);

}  // namespace gol::runner
