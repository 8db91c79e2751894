// Bounded folders (tmpfs_mount.hpp): a root runner's tmpfs of a size and an inode limit on a
// folder of its own, gone with it; and the clean-up of one a killed runner left.
#include "runner/sandbox/tmpfs_mount.hpp"

#include "runner/sys/temp_dir.hpp"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <fstream>
#include <iterator>
#include <string>

using namespace gol::runner;
namespace fs = std::filesystem;

namespace {

std::string mountinfo() {
    std::ifstream in("/proc/self/mountinfo");
    return std::string(std::istreambuf_iterator<char>(in), {});
}

bool mounted(const fs::path& at) { return mountinfo().find(" " + at.string() + " ") != std::string::npos; }

}  // namespace

TEST_CASE("tmpfs options: size, inodes, mode and owner") {
    CHECK(tmpfs_options(1024, 10, std::nullopt) == "size=1024,nr_inodes=10,mode=0700");
    CHECK(tmpfs_options(1 << 20, 20000, Identity{1000, 1001}) == "size=1048576,nr_inodes=20000,mode=0700,uid=1000,gid=1001");
}

TEST_CASE("bounded folder: a root runner's is a tmpfs of its size and inodes, unmounted and removed when it goes") {
    TempDir parent("bounded-test");
    fs::path at;
    {
        BoundedFolder folder("build", parent.path(), std::uint64_t{1} << 20, 100, std::nullopt);
        at = folder.path();
        CHECK(fs::is_directory(at));
        if (::geteuid() != 0) {
            CHECK_FALSE(folder.bounded());
            return;
        }
        REQUIRE(folder.bounded());
        CHECK(mounted(at));
        struct statvfs vfs {};
        REQUIRE(::statvfs(at.c_str(), &vfs) == 0);
        CHECK(vfs.f_files == 100);
        // Space: a 2 MiB file does not fit in 1 MiB.
        const int fd = ::open((at / "big").c_str(), O_WRONLY | O_CREAT, 0600);
        REQUIRE(fd >= 0);
        CHECK(::posix_fallocate(fd, 0, 2 << 20) == ENOSPC);
        ::close(fd);
        // Inodes: folders count as files do.
        int made = 0;
        while (made < 200 && ::mkdir((at / ("d" + std::to_string(made))).c_str(), 0700) == 0) ++made;
        CHECK(errno == ENOSPC);
        CHECK(made < 100);
        // Moved, it is still one mount, unmounted once.
        BoundedFolder moved(std::move(folder));
        CHECK(moved.path() == at);
        CHECK(moved.bounded());
    }
    CHECK_FALSE(mounted(at));
    CHECK_FALSE(fs::exists(at));
}

TEST_CASE("unmount_below: the mounts a killed runner left in its work area go, deepest first, and nothing else") {
    if (::geteuid() != 0) return;
    TempDir area("unmount-test");
    TempDir other("unmount-other");
    const fs::path outer = area.path() / "a b";  // a space, as mountinfo escapes it
    const fs::path inner = outer / "inner";
    fs::create_directory(outer);
    REQUIRE(::mount("tmpfs", outer.c_str(), "tmpfs", 0, "size=1m") == 0);
    fs::create_directory(inner);
    REQUIRE(::mount("tmpfs", inner.c_str(), "tmpfs", 0, "size=1m") == 0);
    REQUIRE(::mount("tmpfs", other.path().c_str(), "tmpfs", 0, "size=1m") == 0);
    unmount_below(area.path());
    CHECK_FALSE(mountinfo().find(area.path().string()) != std::string::npos);
    CHECK(mounted(other.path()));
    REQUIRE(::umount2(other.path().c_str(), MNT_DETACH) == 0);
}
