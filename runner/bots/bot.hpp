// Bots: naming a bot by path or by name, reading its manifest, discovering a folder of them.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace gol::runner {

// A bot that cannot be used; the message names the file and what is wrong. Messages quote
// bots' paths, manifests and build output and are printed on terminals and in logs, so their
// control characters are escaped here (terminal_lines: a build's output keeps its lines).
struct BotError : std::runtime_error {
    explicit BotError(const std::string& message);
};

// tlv: the bot connects to the runner over TCP and speaks the 2014 arena's protocol (docs/protocol.md).
enum class Protocol { argv, stdin, persistent, tlv };
std::string_view name(Protocol protocol);

// How a single-file bot is run, decided by its extension.
enum class SourceKind { manifest, python, ruby, node, shell, perl, c, cpp, java, executable };

struct BotSpec {
    std::string name;  // printable: UTF-8 without control characters (else BotError)
    std::filesystem::path path;  // what was named: the directory or the single file
    std::filesystem::path dir;   // working directory: the bot directory, or the file's folder
    SourceKind kind = SourceKind::manifest;
    std::vector<std::string> run;       // manifest bots: the command, relative programs resolved
    std::optional<std::string> build;   // manifest bots: shell command, run in `dir`
    Protocol protocol = Protocol::argv;
    // A bot run by python3 may run warm (forked from an interpreter started once per game,
    // docs/sandbox.md); a manifest's "warm": false runs it the plain way.
    bool warm = true;
};

// The most a bot.json may hold: a manifest is a few lines, and one is read on every run.
inline constexpr std::size_t max_manifest_bytes = std::size_t{64} << 10;

// Reads `dir`/bot.json: a regular file (not a link, FIFO or device) of at most
// max_manifest_bytes. Throws BotError naming the file and the field.
BotSpec read_manifest(const std::filesystem::path& dir);

// The manifest's text, as read_manifest() checks it (messages name `dir`/bot.json).
BotSpec parse_manifest(std::string_view text, const std::filesystem::path& dir);

// A single file, classified by extension. Throws BotError listing the extensions that work.
BotSpec single_file_bot(const std::filesystem::path& file);

// A path (directory or file), or else a bot name under `bots_dir`.
BotSpec find_bot(const std::string& name_or_path, const std::filesystem::path& bots_dir);

struct Discovered {
    std::filesystem::path path;
    std::optional<BotSpec> bot;  // set when usable so far
    std::string error;           // why not, otherwise
};

// Every bot in `dir`: subdirectories (which need a bot.json) and single files. Documentation
// (README*, *.md, *.txt), Python's __pycache__ and hidden entries are passed over.
std::vector<Discovered> discover_bots(const std::filesystem::path& dir);

}  // namespace gol::runner
