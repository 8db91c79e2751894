#include "runner/sandbox/sandbox.hpp"

#include "runner/sys/copy_tree.hpp"

#include <sys/random.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <iterator>
#include <system_error>

namespace gol::runner {

namespace fs = std::filesystem;

namespace {

// Of /etc, only what programs need to start (the dynamic linker's cache, Debian's alternatives
// behind /usr/bin/java, language runtimes' configuration), not the host's secrets such as
// /etc/shadow.
constexpr const char* kEtc[] = {"/etc/ld.so.cache",      "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/alternatives",
                                "/etc/passwd",           "/etc/group",      "/etc/nsswitch.conf", "/etc/localtime",
                                "/etc/ssl",              "/etc/java-17-openjdk", "/etc/python3",   "/etc/python3.11",
                                "/etc/perl",             "/etc/mime.types"};

// Dedicated host uids for sandboxed processes of a root runner, far above any account's: one
// block per runner process, one uid per sandboxed player or build within it, so that the
// process limit (RLIMIT_NPROC counts a uid's processes) is each one's own.
constexpr std::uint32_t kFirstUid = 0x70000000;
constexpr std::uint32_t kUidsPerRunner = 0x1000;
// Groups of staged copies, one per key, in blocks of the same size below the uids: no group is
// also a sandboxed process's own gid (which is its uid), so none reads another's copy.
constexpr std::uint32_t kFirstGroup = 0x60000000;

std::uint32_t runner_block() { return static_cast<std::uint32_t>(::getpid()) % (0x0fffffff / kUidsPerRunner); }

// A name nobody guesses, for a staged copy. Not a secret: bubblewrap's command line and
// /proc/PID/mountinfo show a mount's source to any local user. The copy's group and mode are
// what keep others out; the name only keeps a copy from being named before it exists.
std::string random_name(const std::string& prefix) {
    unsigned char bytes[16];
    if (::getrandom(bytes, sizeof bytes, 0) != static_cast<ssize_t>(sizeof bytes))
        throw std::system_error(errno, std::generic_category(), "getrandom");
    std::string name = prefix;
    for (unsigned char b : bytes) {
        name += "0123456789abcdef"[b >> 4];
        name += "0123456789abcdef"[b & 15];
    }
    return name;
}

// Inside, every sandboxed process is nobody.
constexpr const char* kInsideId = "65534";

std::vector<std::string> base_command(const std::string& bwrap) {
    std::vector<std::string> argv = {
        bwrap,
        // New user, PID, network, IPC, UTS and cgroup namespaces, and no user namespace inside
        // it (a kernel attack surface no bot needs). Killing bwrap (our process group leader)
        // ends the PID namespace, and with it every process the bot started.
        "--unshare-all", "--unshare-user", "--disable-userns", "--die-with-parent", "--uid", kInsideId, "--gid",
        kInsideId, "--ro-bind", "/usr", "/usr", "--symlink", "usr/bin", "/bin", "--symlink", "usr/sbin", "/sbin",
        "--symlink", "usr/lib", "/lib", "--symlink", "usr/lib64", "/lib64", "--proc", "/proc", "--dev", "/dev",
    };
    for (const char* etc : kEtc)
        if (::access(etc, F_OK) == 0) argv.insert(argv.end(), {"--ro-bind", etc, etc});
    return argv;
}

// The folders bubblewrap makes for a mount inside the sandbox's writable /tmp or /dev/shm would
// be the bot's to rename: it could move its own files away and leave a FIFO at their path, for a
// warm interpreter to wait on between moves. So the first folder below either, on the way to a
// deeper mount, is a read-only tmpfs of its own: a mount point, which cannot be renamed, holding
// nothing but the folders on the way to the mounts. (A mount directly there is a mount point.)
std::vector<std::string> sealed_folders(const SandboxView& view) {
    std::vector<std::string> sealed;
    for (const SandboxView::Mount& m : view.mounts)
        for (const char* writable : {"/tmp", "/dev/shm"}) {
            const fs::path rel = m.target.lexically_normal().lexically_relative(writable);
            if (rel.empty() || *rel.begin() == ".." || *rel.begin() == "." || std::next(rel.begin()) == rel.end())
                continue;
            const std::string top = (fs::path(writable) / *rel.begin()).string();
            if (std::find(sealed.begin(), sealed.end(), top) == sealed.end()) sealed.push_back(top);
        }
    return sealed;
}

}  // namespace

std::optional<std::string> Sandbox::find_bubblewrap() {
    for (const char* path : {"/usr/bin/bwrap", "/usr/local/bin/bwrap"}) {
        if (::access(path, X_OK) != 0) continue;
        // Installed is not enough: some hosts forbid the namespaces it needs, some only to
        // unprivileged users (which is what it runs as under a root runner).
        SpawnSpec probe;
        std::vector<std::string> argv = base_command(path);
        argv.insert(argv.end(), {"--remount-ro", "/", "--", "/bin/true"});
        probe.argv = argv;
        probe.timeout = std::chrono::seconds(10);
        if (::geteuid() == 0) probe.run_as = Identity{kFirstUid + kUidsPerRunner - 1, kFirstUid + kUidsPerRunner - 1};
        RunOutcome r = run_process(probe);
        if (r.kind == RunOutcome::Kind::exited && r.exit_status == 0) return std::string(path);
    }
    return std::nullopt;
}

Sandbox::Sandbox(std::string bwrap, const WorkArea& area) : bwrap_(std::move(bwrap)), area_(area) {}

gid_t Sandbox::copy_group(const std::string& key) {
    const auto [it, added] = copy_groups_.try_emplace(key, 0);
    if (added)
        it->second = kFirstGroup + runner_block() * kUidsPerRunner + (copy_groups_.size() - 1) % kUidsPerRunner;
    return it->second;
}

// The figures of add_tmpfs and build_folder, as they mount them: a root runner's tmpfs counts
// inodes (every file, folder and link is one); bubblewrap's, and a build's plain folder, do not.
std::string Sandbox::limits_line() const {
    const auto mib = [](std::uint64_t bytes) { return std::to_string(bytes >> 20) + " MiB"; };
    const bool root = ::geteuid() == 0;
    const std::string filesystems =
        "/tmp, /dev/shm and the scratch folder: " + mib(tmp_bytes) +
        (root ? " and " + std::to_string(tmp_files) + " inodes each (files, folders and links)"
              : " each (no inode count: not root)") +
        "; a build's folder: " +
        (root ? mib(build_bytes) + " and " + std::to_string(build_files) + " inodes" : "the host's disk (not root)");
    if (!groups_.available())
        return "no control group (" + groups_.why_not() + "): memory, CPU and processes limited per process only; " + filesystems;
    return "control group v" + std::to_string(groups_.version()) + " per bot (" + groups_.holding() + "); " + filesystems;
}

std::optional<Identity> Sandbox::new_identity(const std::string& key) {
    if (::geteuid() != 0) return std::nullopt;
    std::lock_guard lock(mutex_);
    // Each block's last uid is left out: block 0's is the probe's.
    const std::uint32_t uid = kFirstUid + runner_block() * kUidsPerRunner + next_uid_++ % (kUidsPerRunner - 1);
    return Identity{uid, key.empty() ? uid : copy_group(key)};
}

std::vector<SandboxView::Mount> Sandbox::stage(const std::string& key, const std::vector<fs::path>& paths,
                                               Files files) {
    std::lock_guard lock(mutex_);
    if (auto it = staged_.find(key); it != staged_.end()) return it->second;
    // The runner owns every copy. A bot's are its group's, the group of the key's identities,
    // and nobody else's; the host's own programs are everyone's. A runner that is not root
    // runs its sandboxes as itself, and its work area is its own alone.
    CopyAccess access{std::nullopt, files == Files::host};
    if (files == Files::bot && ::geteuid() == 0) access.owner = Identity{0, copy_group(key)};
    std::vector<SandboxView::Mount> mounts;
    for (const fs::path& path : paths) {
        const fs::path copy = area_.path() / random_name("staged-");
        try {
            if (fs::is_directory(fs::symlink_status(path))) {
                copy_tree(path, copy, access);
                mounts.push_back({copy, path, false});
            } else {
                // A single file is shown alone: its neighbours are other bots.
                make_copy_folder(copy, access);
                copy_tree(path, copy / path.filename(), access);
                mounts.push_back({copy, path.parent_path(), false});
            }
        } catch (...) {
            // Nothing half-made stays, and nothing is kept under the key: a later call fails too.
            remove_tree(copy);
            for (const SandboxView::Mount& m : mounts) remove_tree(m.source);
            throw;
        }
    }
    return staged_[key] = mounts;
}

BoundedFolder Sandbox::build_folder(const std::string& prefix, const std::optional<Identity>& who) const {
    return BoundedFolder(prefix, area_.path(), build_bytes, build_files, who);
}

SandboxCommand Sandbox::command(const SandboxView& view, const std::vector<std::string>& command,
                                const std::optional<Identity>& who) const {
    SandboxCommand c;
    std::vector<std::string>& argv = c.argv = base_command(bwrap_);
    argv.push_back("--as-pid-1");
    // RAM-backed and writable, so capped; the rest of /dev is read-only.
    add_tmpfs(c, {"/dev/shm", tmp_bytes, tmp_files}, who);
    argv.insert(argv.end(), {"--remount-ro", "/dev"});
    // Before the mounts: a bot's files may lie in the host's /tmp.
    add_tmpfs(c, {"/tmp", tmp_bytes, tmp_files}, who);
    const std::vector<std::string> sealed = sealed_folders(view);
    for (const std::string& folder : sealed) argv.insert(argv.end(), {"--size", "65536", "--tmpfs", folder});
    for (const SandboxView::Mount& m : view.mounts)
        argv.insert(argv.end(), {m.writable ? "--bind" : "--ro-bind", m.source.string(), m.target.string()});
    for (const std::string& folder : sealed) argv.insert(argv.end(), {"--remount-ro", folder});
    for (const SandboxView::Tmpfs& t : view.tmpfs) add_tmpfs(c, t, who);
    // The folders bwrap made for the mounts stay read-only.
    argv.insert(argv.end(), {"--remount-ro", "/", "--clearenv"});
    for (const std::string& entry : view.environment) {
        const std::size_t eq = entry.find('=');
        argv.insert(argv.end(), {"--setenv", entry.substr(0, eq), entry.substr(eq + 1)});
    }
    argv.insert(argv.end(), {"--chdir", view.workdir.string(), "--"});
    argv.insert(argv.end(), command.begin(), command.end());
    return c;
}

void Sandbox::add_tmpfs(SandboxCommand& c, const SandboxView::Tmpfs& t, const std::optional<Identity>& who) const {
    if (::geteuid() != 0) {
        c.argv.insert(c.argv.end(), {"--size", std::to_string(t.bytes), "--tmpfs", t.target.string()});
        return;
    }
    // Mounted by the spawn, before bubblewrap runs, on a folder of the work area that only
    // bubblewrap's mount namespace ever sees filled; shown inside with a bind.
    TempDir& at = c.mount_points.emplace_back("tmpfs", area_.path());
    c.tmpfs.push_back({at.path(), tmpfs_options(t.bytes, t.files, who)});
    c.argv.insert(c.argv.end(), {"--bind", at.path().string(), t.target.string()});
}

}  // namespace gol::runner
