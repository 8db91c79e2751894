// Bubblewrap around a contestant's code (a bot's moves, its build, a compiler): new namespaces
// (no network, its own PIDs, no further user namespaces), a read-only view of the system, copies
// of the bot's own files, size-limited /tmp and /dev/shm, and nothing else of the host. When the
// runner is root, what runs inside is an unprivileged user on the host too.
#pragma once

#include "runner/sandbox/control_group.hpp"
#include "runner/sys/process.hpp"
#include "runner/sys/temp_dir.hpp"
#include "runner/sandbox/tmpfs_mount.hpp"
#include "runner/sandbox/work_area.hpp"

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
    // Writable, memory-backed, empty at start and gone with the sandbox, after the mounts:
    // besides /tmp and /dev/shm, which every sandbox has.
    struct Tmpfs {
        std::filesystem::path target;
        std::uint64_t bytes;
        std::uint64_t files;  // inodes: files, folders and links (kept only when the runner is root)
    };
    std::vector<Tmpfs> tmpfs;
};

// A sandboxed command, ready for a SpawnSpec: bubblewrap's command line, and the filesystems
// the spawn mounts for it (SpawnSpec::tmpfs) on folders that must outlive its process.
struct SandboxCommand {
    std::vector<std::string> argv;
    std::vector<SpawnSpec::Tmpfs> tmpfs;
    std::vector<TempDir> mount_points;
};

class Sandbox {
public:
    // /tmp and /dev/shm inside, and a bot's scratch folder: memory, so they are capped, in bytes
    // and in files (inodes: every file, folder and link counts). limits_line() says these figures.
    static constexpr std::uint64_t tmp_bytes = std::uint64_t{64} << 20;
    static constexpr std::uint64_t tmp_files = 10000;
    // A build's or compiler's folder (build_folder): room for a compiler's output and the files
    // a build makes on the way, twice the files a bot may keep; what it leaves is cached within
    // a bot's caps (copy_tree.hpp).
    static constexpr std::uint64_t build_bytes = std::uint64_t{1} << 30;
    static constexpr std::uint64_t build_files = 20000;

    // Its bots' control groups (control_group.hpp), when the host lets the runner make them.
    ControlGroups& groups() { return groups_; }
    // Which limits hold in this sandbox and how, in a line: "control group v1 (memory, pids, ...)".
    std::string limits_line() const;

    // bubblewrap's path when it is installed and can make its namespaces here, as the user the
    // sandboxed processes would run as; nullopt otherwise.
    static std::optional<std::string> find_bubblewrap();

    // `area` must be reachable by others when the runner is root (WorkArea(true)).
    Sandbox(std::string bwrap, const WorkArea& area);

    // The host user a new sandboxed process runs as: when the runner is root, a dedicated
    // unprivileged uid of its own (nobody inside), whose group is that of the copies staged
    // under `key` (its own uid without one); otherwise the runner's own user (nullopt).
    std::optional<Identity> new_identity(const std::string& key = {});

    // Whose files a staged copy holds: a bot's (or a build's), for the processes whose identity
    // has its key alone, within a bot's limits; or the host's own programs (the launcher, the
    // warm interpreters, the preload library, an --interpreter folder), copied as they are for
    // every sandboxed process (CopyAccess::host).
    enum class Files { bot, host };

    // Copies of `paths` (folders, or single files: such a file is shown alone in its folder)
    // in the work area, made once per run for each key by copy_tree (copy_tree.hpp), under names
    // nobody guesses, mounted read-only at the paths' own places. For a bot's files under a
    // root runner each copy is root's and the key's group's, mode 0750 (files 0640 or 0750), and
    // no other user reads or lists it. Throws CopyError when a copy is refused (a link leading
    // out, over the limits), leaving nothing of it. Thread-safe.
    std::vector<SandboxView::Mount> stage(const std::string& key, const std::vector<std::filesystem::path>& paths,
                                          Files files = Files::bot);

    // A fresh folder in the work area that `who` owns, for a build or a compiler to write: when
    // the runner is root, a tmpfs of build_bytes and build_files (tmpfs_mount.hpp), so that what a
    // build writes is memory charged to its control group and never reaches the host's disk.
    BoundedFolder build_folder(const std::string& prefix, const std::optional<Identity>& who) const;

    // What runs `command` inside the sandbox as `view` says, as `who` (new_identity()), as
    // process 1 of its PID namespace (the launcher, launcher.hpp, reaps its orphans itself).
    // Each memory-backed filesystem has a size limit; when the runner is root, an inode limit
    // too: the spawn mounts it (SpawnSpec::tmpfs), where bubblewrap could only give a size.
    SandboxCommand command(const SandboxView& view, const std::vector<std::string>& command,
                           const std::optional<Identity>& who) const;

private:
    void add_tmpfs(SandboxCommand& c, const SandboxView::Tmpfs& t, const std::optional<Identity>& who) const;
    std::string bwrap_;
    const WorkArea& area_;
    std::mutex mutex_;
    std::map<std::string, std::vector<SandboxView::Mount>> staged_;
    std::map<std::string, gid_t> copy_groups_;  // by staging key
    std::uint32_t next_uid_ = 0;
    ControlGroups groups_;

    gid_t copy_group(const std::string& key);  // under mutex_
};

}  // namespace gol::runner
