// Bubblewrap around a bot: new namespaces (no network, its own PIDs), a read-only view of the
// system and of the bot's own files, one writable scratch directory, and nothing else.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace gol::runner {

// bwrap's path when it is installed and can create namespaces here.
std::optional<std::string> find_bubblewrap();

// The command that runs `command` inside the sandbox, in working directory `dir`, seeing of the
// host only the system, `own` read-only (the bot's directory, or a single-file bot's file: its
// neighbours are other bots), `read_only` (a compiled bot's build folder, the runner's preload
// library) and `scratch` writable. Paths in `command` are the sandbox's: a manifest that names
// a host path in `run` makes nothing of the host visible. `environment` ("NAME=VALUE") is set
// inside, for the command, not for bwrap.
std::vector<std::string> sandboxed(const std::string& bwrap, const std::vector<std::string>& command,
                                   const std::filesystem::path& dir, const std::filesystem::path& own,
                                   const std::filesystem::path& scratch,
                                   const std::vector<std::filesystem::path>& read_only = {},
                                   const std::vector<std::string>& environment = {});

}  // namespace gol::runner
