#include "runner/bots/repository_bot.hpp"

#include "runner/game/json_fields.hpp"
#include "runner/sys/atomic_file.hpp"
#include "runner/sys/copy_tree.hpp"
#include "runner/sys/small_file.hpp"
#include "runner/sys/temp_dir.hpp"
#include "runner/text/terminal_text.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <stdexcept>

namespace gol::runner {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// A state is a few hundred bytes; a fetch's error is cut by import well below this.
constexpr std::size_t kMaxStateBytes = 64 * 1024;

fs::path repositories_dir(const fs::path& bots_dir) { return bots_dir / ".repositories"; }
fs::path state_file(const fs::path& bots_dir, const std::string& name) { return repositories_dir(bots_dir) / (name + ".json"); }
// The copy and its commit in one folder, NAME.good/{NAME/,commit.json}, replaced whole.
fs::path good_dir(const fs::path& bots_dir, const std::string& name) { return repositories_dir(bots_dir) / (name + ".good"); }

// The file's fields, each a string ("" when left out), none when there is no file. Throws
// std::runtime_error naming the file when it is not an object of `keys`.
std::optional<std::map<std::string, std::string>> read_strings(const fs::path& file, std::vector<std::string_view> keys) {
    std::error_code ec;
    if (!fs::exists(fs::symlink_status(file, ec))) return std::nullopt;
    try {
        const json j = parse_json(read_small_file(file, kMaxStateBytes));
        const JsonObject o(j, keys);
        std::map<std::string, std::string> fields;
        for (std::string_view key : keys) fields[std::string(key)] = o.string(std::string(key).c_str()).value_or("");
        return fields;
    } catch (const SmallFileError& e) {
        throw std::runtime_error(file.string() + " " + e.what());
    } catch (const RecordError& e) {
        throw std::runtime_error(file.string() + ": " + e.what());
    }
}

}  // namespace

std::optional<std::string> refused_git_url(std::string_view url, bool allow_file) {
    if (url.empty()) return "an empty URL";
    if (url.starts_with("-")) return "a URL that starts with '-' (git would take it for an option)";
    // "ext::sh -c ...", "fd::3": git's transport helpers, named before "::".
    const std::string_view helper = url.substr(0, url.find("::"));
    if (helper.size() < url.size() && letters_digits_or(helper, "+-."))
        return "a transport helper (\"" + std::string(url.substr(0, url.find("::") + 2)) +
               "\"): git would run a program; only https://, git:// and ssh:// are fetched";
    if (std::any_of(url.begin(), url.end(), [](unsigned char c) { return c <= 0x20 || c == 0x7f; }))
        return "a URL with spaces or control characters";
    for (std::string_view scheme : {"https://", "git://", "ssh://"})
        if (url.starts_with(scheme)) {
            const std::string_view host = url.substr(scheme.size());
            if (host.empty() || host.front() == '-' || host.front() == '/') return "a URL without a host";
            return std::nullopt;
        }
    if (url.starts_with("file://")) {
        if (allow_file) return std::nullopt;
        return "a file:// URL, which reads a repository of this machine: allowed only with --allow-file-urls (tests)";
    }
    return "not an https://, git:// or ssh:// URL (write ssh://user@host/path for ssh)";
}

std::optional<std::string> refused_branch(std::string_view b) {
    const bool chars = letters_digits_or(b, "._-/");
    if (b.empty() || b.size() > 200 || !chars || b.front() == '-' || b.front() == '/' || b.front() == '.' ||
        b.back() == '/' || b.back() == '.' || b.find("..") != std::string_view::npos ||
        b.find("//") != std::string_view::npos || b.find("/.") != std::string_view::npos || b.ends_with(".lock"))
        return "not a branch name (letters, digits, '.', '_', '-' and '/', at most 200, as git allows them)";
    return std::nullopt;
}

std::optional<std::string> refused_bot_name(std::string_view n) {
    const bool chars = letters_digits_or(n, "._-");
    if (n.empty() || n.size() > 100 || !chars || n.front() == '.' || n.front() == '-')
        return "not a bot's name (letters, digits, '.', '_' and '-', not first; at most 100)";
    return std::nullopt;
}

std::string bot_name_from_url(std::string_view url) {
    // The path's last part: a URL of a host alone ("https://example.org/") names no bot.
    if (const std::size_t scheme = url.find("://"); scheme != std::string_view::npos) {
        const std::size_t path = url.find('/', scheme + 3);
        url = path == std::string_view::npos ? std::string_view{} : url.substr(path);
    }
    while (url.ends_with("/")) url.remove_suffix(1);
    std::string_view last = url.substr(url.find_last_of('/') == std::string_view::npos ? 0 : url.find_last_of('/') + 1);
    if (last.ends_with(".git")) last.remove_suffix(4);
    return refused_bot_name(last) ? "" : std::string(last);
}

std::optional<RepositoryState> read_repository_state(const fs::path& bots_dir, const std::string& name) {
    auto f = read_strings(state_file(bots_dir, name), {"url", "branch", "commit", "fetched", "error", "failed"});
    if (!f) return std::nullopt;
    return RepositoryState{(*f)["url"], (*f)["branch"], (*f)["commit"], (*f)["fetched"], (*f)["error"], (*f)["failed"]};
}

std::map<std::string, RepositoryState> repository_states(const fs::path& bots_dir) {
    std::map<std::string, RepositoryState> states;
    std::error_code ec;
    for (fs::directory_iterator it(repositories_dir(bots_dir), ec), end; !ec && it != end; it.increment(ec)) {
        const fs::path& file = it->path();
        if (file.extension() != ".json" || file.filename().string().starts_with(".")) continue;
        const std::string name = file.stem().string();
        try {
            if (std::optional<RepositoryState> state = read_repository_state(bots_dir, name)) states[name] = *state;
        } catch (const std::runtime_error& e) {
            states[name].error = e.what();
        }
    }
    return states;
}

void write_repository_state(const fs::path& bots_dir, const std::string& name, const RepositoryState& s) {
    json j = {{"url", s.url}, {"branch", s.branch}, {"commit", s.commit}, {"fetched", s.fetched}};
    if (!s.error.empty()) j.update({{"error", s.error}, {"failed", s.failed}});
    write_file_atomically(state_file(bots_dir, name), j.dump(2) + "\n");
}

std::optional<GoodCommit> last_good_commit(const fs::path& bots_dir, const std::string& name) {
    const auto f = read_strings(good_dir(bots_dir, name) / "commit.json", {"commit"});
    const fs::path copy = good_dir(bots_dir, name) / name;
    std::error_code ec;
    if (!f || f->at("commit").empty() || !fs::is_directory(fs::symlink_status(copy, ec))) return std::nullopt;
    return GoodCommit{copy, f->at("commit")};
}

void keep_good_commit(const fs::path& bots_dir, const std::string& name, const fs::path& dir, const std::string& commit) {
    if (const std::optional<GoodCommit> kept = last_good_commit(bots_dir, name); kept && kept->commit == commit) return;
    fs::create_directories(repositories_dir(bots_dir));
    // Hidden and beside the copy, so that the swap is one rename; removed with the old copy.
    const TempDir staging("." + name + ".good", repositories_dir(bots_dir));
    const fs::path made = staging.path() / "good";
    fs::create_directory(made);
    copy_tree(dir, made / name);
    write_file_atomically(made / "commit.json", json({{"commit", commit}}).dump() + "\n");
    swap_in_folder(made, good_dir(bots_dir, name));
}

}  // namespace gol::runner
