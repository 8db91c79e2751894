// The bot folders `runner import` writes into a bots folder: each holds a bot's source, its
// bot.json and an answer.json naming the answer it came from, which is how the next import
// finds it again.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace gol::runner {

struct BotFile {
    std::string name;
    std::string contents;
};

struct BotFolder {
    std::string name;            // the folder's name in the bots folder: the bot's name
    std::vector<BotFile> files;  // the source and bot.json: what the bot is
    std::string answer_json;     // answer.json: where it came from
};

// A folder of the bots folder with a readable answer.json.
struct ImportedFolder {
    std::string name;
    std::int64_t answer_id = 0;
    std::int64_t question_id = 0;
};

inline constexpr const char* answer_file_name = "answer.json";
// The host's own manifest for an imported bot (docs/league.md): import writes it as the folder's
// bot.json in place of the one the answer makes, and keeps it, byte for byte, in each new version.
inline constexpr const char* local_manifest_name = "bot.local.json";

// The imported folders of `bots_dir`, by name (none when it does not exist).
std::vector<ImportedFolder> imported_folders(const std::filesystem::path& bots_dir);

// The contents of `folder`'s bot.local.json, none when it has none. Throws std::runtime_error
// saying why one cannot be used (a link, not a regular file, too big).
std::optional<std::string> local_manifest(const std::filesystem::path& folder);

// The name of every bot in `bots_dir` as a league would name it: a folder's name, a file's stem.
std::vector<std::string> bot_names_in(const std::filesystem::path& bots_dir);

// Whether `dir` holds each of `files` with exactly these bytes.
bool holds_files(const std::filesystem::path& dir, const std::vector<BotFile>& files);

// Writes the folder whole into `bots_dir`: built beside it under a hidden name, then swapped in
// with one rename, so that a league never sees half a bot and a failure leaves the old one.
void write_bot_folder(const std::filesystem::path& bots_dir, const BotFolder& folder);

}  // namespace gol::runner
