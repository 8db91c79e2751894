// Bubblewrap around a contestant's code (a bot's moves, its build, a compiler): new namespaces
// (no network, its own PIDs, no further user namespaces), a read-only view of the system, copies
// of the bot's own files, size-limited /tmp and /dev/shm, and nothing else of the host. When the
// runner is root, what runs inside is an unprivileged user on the host too.
#pragma once

#include "runner/sys/process.hpp"
#include "runner/sys/temp_dir.hpp"
#include "runner/sys/work_area.hpp"

#include <cstdint>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace gol::runner {

// What one sandboxed process sees of the host besides the system, and where it starts.
struct SandboxView {
    struct Mount {
        std::filesystem::path source;  // on the host: a folder the sandbox's user can reach
        std::filesystem::path target;  // inside
        bool writable = false;
    };
    std::vector<Mount> mounts;  // in order: a later one may lie inside an earlier one
    std::filesystem::path workdir;
    std::vector<std::string> environment;  // "NAME=VALUE": all the command gets of an environment
};

class Sandbox {
public:
    // /tmp and /dev/shm inside: memory, so they are capped.
    static constexpr std::uint64_t tmp_bytes = std::uint64_t{64} << 20;

    // bubblewrap's path when it is installed and can make its namespaces here, as the user the
    // sandboxed processes would run as; nullopt otherwise.
    static std::optional<std::string> find_bubblewrap();

    // `area` must be reachable by others when the runner is root (WorkArea(true)).
    Sandbox(std::string bwrap, const WorkArea& area);

    // The host user a new sandboxed process runs as: when the runner is root, a dedicated
    // unprivileged uid of its own (nobody inside), whose group is that of the copies staged
    // under `key` (its own uid without one); otherwise the runner's own user (nullopt).
    std::optional<Identity> new_identity(const std::string& key = {});

    // Who reads a staged copy: the processes whose identity has its key, or every sandboxed
    // process (the runner's own programs: the launcher, the warm interpreters, the preload library).
    enum class Readers { group, everyone };

    // Copies of `paths` (folders, or single files: such a file is shown alone in its folder)
    // in the work area, made once per run for each key by copy_tree (copy_tree.hpp), under names
    // nobody guesses, mounted read-only at the paths' own places. For Readers::group under a
    // root runner each copy is root's and the key's group's, mode 0750 (files 0640 or 0750), and
    // no other user reads or lists it. Throws CopyError when a copy is refused (a link leading
    // out, over the limits), leaving nothing of it. Thread-safe.
    std::vector<SandboxView::Mount> stage(const std::string& key, const std::vector<std::filesystem::path>& paths,
                                          Readers readers = Readers::group);

    // A fresh folder in the work area that `who` owns, for a sandboxed process to write.
    TempDir writable_dir(const std::string& prefix, const std::optional<Identity>& who) const;

    // The command line that runs `command` inside the sandbox as `view` says. `as_pid_1`: the
    // command is process 1 of the sandbox's PID namespace and reaps its orphans itself (the
    // launcher, launcher.hpp); otherwise bubblewrap puts a reaper of its own there.
    std::vector<std::string> command(const SandboxView& view, const std::vector<std::string>& command,
                                     bool as_pid_1 = false) const;

private:
    std::string bwrap_;
    const WorkArea& area_;
    std::mutex mutex_;
    std::map<std::string, std::vector<SandboxView::Mount>> staged_;
    std::map<std::string, gid_t> groups_;  // by staging key
    std::uint32_t next_uid_ = 0;

    gid_t group_of(const std::string& key);  // under mutex_
};

}  // namespace gol::runner
