#include "runner/import/imported_bots.hpp"

#include "runner/sys/atomic_file.hpp"
#include "runner/sys/small_file.hpp"
#include "runner/sys/temp_dir.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <stdexcept>

namespace gol::runner {

namespace fs = std::filesystem;

namespace {

// An answer.json is a few hundred bytes; what is far more is no record of an import.
constexpr std::size_t kMaxAnswerRecord = 64 * 1024;

// The file's bytes when it is a regular file, not a link, of at most `max_bytes`: a folder of
// the bots folder is anyone's, and a link to /proc/kmsg or /proc/self/pagemap must not be read.
std::optional<std::string> plain_file_bytes(const fs::path& file, std::size_t max_bytes) {
    try {
        return read_small_file(file, max_bytes);
    } catch (const SmallFileError&) {
        return std::nullopt;
    }
}

}  // namespace

std::vector<ImportedFolder> imported_folders(const fs::path& bots_dir) {
    std::vector<ImportedFolder> found;
    std::error_code ec;
    if (!fs::is_directory(bots_dir, ec)) return found;
    for (const auto& entry : fs::directory_iterator(bots_dir)) {
        if (entry.path().filename().string().starts_with(".") || entry.is_symlink(ec) || !entry.is_directory(ec)) continue;
        const std::optional<std::string> text = plain_file_bytes(entry.path() / answer_file_name, kMaxAnswerRecord);
        if (!text) continue;
        const nlohmann::json j = nlohmann::json::parse(*text, nullptr, false);
        if (!j.is_object() || !j.contains("answer_id") || !j["answer_id"].is_number_integer()) continue;
        found.push_back({entry.path().filename().string(), j["answer_id"].get<std::int64_t>(),
                         j.value("question_id", std::int64_t{0})});
    }
    return found;
}

std::optional<std::string> local_manifest(const fs::path& folder) {
    const fs::path file = folder / local_manifest_name;
    std::error_code ec;
    if (!fs::exists(fs::symlink_status(file, ec))) return std::nullopt;
    try {
        return read_small_file(file, kMaxAnswerRecord);
    } catch (const SmallFileError& e) {
        throw std::runtime_error(std::string(local_manifest_name) + " " + e.what());
    }
}

std::vector<std::string> bot_names_in(const fs::path& bots_dir) {
    std::vector<std::string> names;
    std::error_code ec;
    if (!fs::is_directory(bots_dir, ec)) return names;
    for (const auto& entry : fs::directory_iterator(bots_dir))
        names.push_back(entry.is_directory() ? entry.path().filename().string() : entry.path().stem().string());
    return names;
}

bool holds_files(const fs::path& dir, const std::vector<BotFile>& files) {
    for (const BotFile& file : files)
        if (plain_file_bytes(dir / file.name, file.contents.size()) != file.contents) return false;
    return true;
}

void write_bot_folder(const fs::path& bots_dir, const BotFolder& folder) {
    fs::create_directories(bots_dir);
    // Hidden, so that discovery passes over it; removed with what it holds after the swap.
    const TempDir staging("." + folder.name + ".import", bots_dir);
    // Sandboxed bots run as another user, who must read their folder (TempDir makes it 0700).
    fs::permissions(staging.path(), fs::perms(0755));
    for (const BotFile& file : folder.files) write_file_atomically(staging.path() / file.name, file.contents);
    write_file_atomically(staging.path() / answer_file_name, folder.answer_json);
    swap_in_folder(staging.path(), bots_dir / folder.name);
}

}  // namespace gol::runner
