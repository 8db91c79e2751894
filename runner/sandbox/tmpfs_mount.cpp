#include "runner/sandbox/tmpfs_mount.hpp"

#include <mntent.h>
#include <sys/mount.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <vector>

namespace gol::runner {

namespace fs = std::filesystem;

std::string tmpfs_options(std::uint64_t bytes, std::uint64_t files, const std::optional<Identity>& who) {
    std::string options = "size=" + std::to_string(bytes) + ",nr_inodes=" + std::to_string(files) + ",mode=0700";
    if (who) options += ",uid=" + std::to_string(who->uid) + ",gid=" + std::to_string(who->gid);
    return options;
}

BoundedFolder::BoundedFolder(const std::string& prefix, const fs::path& parent, std::uint64_t bytes,
                             std::uint64_t files, const std::optional<Identity>& who)
    : dir_(prefix, parent) {
    if (who && ::lchown(path().c_str(), who->uid, who->gid) != 0)
        throw std::runtime_error("chown " + path().string() + ": " + std::strerror(errno));
    if (::geteuid() != 0) return;
    if (::mount("tmpfs", path().c_str(), "tmpfs", MS_NOSUID | MS_NODEV, tmpfs_options(bytes, files, who).c_str()) != 0)
        throw std::runtime_error("mounting a tmpfs on " + path().string() + ": " + std::strerror(errno));
    mounted_ = true;
}

BoundedFolder::BoundedFolder(BoundedFolder&& other) noexcept : dir_(std::move(other.dir_)), mounted_(other.mounted_) {
    other.mounted_ = false;
}

BoundedFolder::~BoundedFolder() {
    // Detached: a process still inside it (none should be) cannot keep it; its memory goes with
    // the last reference. Then the empty folder goes with dir_.
    if (mounted_) ::umount2(path().c_str(), MNT_DETACH);
}

void unmount_below(const fs::path& dir) {
    const std::string top = dir.lexically_normal().string();
    std::vector<std::string> points;
    // getmntent undoes the octal escapes of a space, tab, newline or backslash in a mount point.
    const std::unique_ptr<FILE, int (*)(FILE*)> mounts(::setmntent("/proc/self/mounts", "re"), ::endmntent);
    while (const mntent* m = mounts ? ::getmntent(mounts.get()) : nullptr) {
        const std::string point = m->mnt_dir;
        if (point == top || point.starts_with(top + "/")) points.push_back(point);
    }
    // Deepest first: a mount below another goes before it.
    std::sort(points.begin(), points.end(), [](const std::string& a, const std::string& b) { return a.size() > b.size(); });
    for (const std::string& point : points) ::umount2(point.c_str(), MNT_DETACH);
}

}  // namespace gol::runner
