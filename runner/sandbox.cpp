#include "runner/sandbox.hpp"

#include "runner/process.hpp"

#include <unistd.h>

#include <set>

namespace gol::runner {

namespace fs = std::filesystem;

namespace {

// The system the bot may read: /usr, and of /etc only what programs need to start (the
// dynamic linker's cache, Debian's alternatives behind /usr/bin/java, language runtimes'
// configuration), not the host's secrets such as /etc/shadow.
constexpr const char* kSystem[] = {"/usr", "/etc"};
constexpr const char* kEtc[] = {"/etc/ld.so.cache",      "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/alternatives",
                                "/etc/passwd",           "/etc/group",      "/etc/nsswitch.conf", "/etc/localtime",
                                "/etc/ssl",              "/etc/java-17-openjdk", "/etc/python3",   "/etc/python3.11",
                                "/etc/perl",             "/etc/mime.types"};

bool under(const fs::path& p, const fs::path& root) {
    auto rel = p.lexically_relative(root);
    return !rel.empty() && *rel.begin() != "..";
}

bool in_system(const fs::path& p) {
    for (const char* root : kSystem)
        if (under(p, root)) return true;
    return false;
}

}  // namespace

std::optional<std::string> find_bubblewrap() {
    for (const char* path : {"/usr/bin/bwrap", "/usr/local/bin/bwrap"}) {
        if (::access(path, X_OK) != 0) continue;
        // Installed is not enough: some containers forbid the namespaces it needs.
        SpawnSpec probe;
        probe.argv = sandboxed(path, {"/bin/true"}, "/usr", "/usr", fs::temp_directory_path());
        probe.timeout = std::chrono::seconds(10);
        RunOutcome r = run_process(probe);
        if (r.kind == RunOutcome::Kind::exited && r.exit_status == 0) return std::string(path);
    }
    return std::nullopt;
}

std::vector<std::string> sandboxed(const std::string& bwrap, const std::vector<std::string>& command,
                                   const fs::path& dir, const fs::path& own, const fs::path& scratch,
                                   const std::vector<fs::path>& read_only, const std::vector<std::string>& environment) {
    std::vector<std::string> argv = {
        bwrap,
        // New user, PID, network, IPC, UTS and cgroup namespaces. Killing bwrap (our process
        // group leader) ends the PID namespace, and with it every process the bot started,
        // even one that left the process group.
        "--unshare-all", "--die-with-parent", "--uid", "65534", "--gid", "65534",
        "--ro-bind", "/usr", "/usr",
        "--symlink", "usr/bin", "/bin", "--symlink", "usr/sbin", "/sbin",
        "--symlink", "usr/lib", "/lib", "--symlink", "usr/lib64", "/lib64",
        "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp",
    };
    for (const char* etc : kEtc)
        if (::access(etc, F_OK) == 0) argv.insert(argv.end(), {"--ro-bind", etc, etc});
    std::set<std::string> bound;
    auto bind = [&](const char* how, const fs::path& path) {
        if (!bound.insert(path.string()).second) return;
        argv.insert(argv.end(), {how, path.string(), path.string()});
    };
    // An empty, read-only directory where a single-file bot lives, so its neighbours stay hidden.
    if (own != dir) argv.insert(argv.end(), {"--tmpfs", dir.string()});
    bind("--ro-bind", own);
    if (own != dir) argv.insert(argv.end(), {"--remount-ro", dir.string()});
    for (const fs::path& p : read_only)
        if (!in_system(p)) bind("--ro-bind", p);
    bind("--bind", scratch);
    for (const std::string& entry : environment) {
        const std::size_t eq = entry.find('=');
        argv.insert(argv.end(), {"--setenv", entry.substr(0, eq), entry.substr(eq + 1)});
    }
    argv.insert(argv.end(), {"--chdir", dir.string(), "--"});
    argv.insert(argv.end(), command.begin(), command.end());
    return argv;
}

}  // namespace gol::runner
