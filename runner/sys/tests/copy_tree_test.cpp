// Copies and removals by descriptors (copy_tree.hpp, temp_dir.hpp): links kept or refused, never
// followed; sparse files kept sparse; the limits of a copy; removal that never leaves the tree.
#include "runner/sys/copy_tree.hpp"
#include "runner/sys/temp_dir.hpp"
#include "runner/sys/unique_fd.hpp"
#include "runner/testing/memory_folder.hpp"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <string>

using namespace gol::runner;
namespace fs = std::filesystem;

namespace {

void write(const fs::path& path, const std::string& text) {
    fs::create_directories(path.parent_path());
    std::ofstream(path) << text;
}

std::string read(const fs::path& path) {
    std::ifstream in(path);
    return std::string((std::istreambuf_iterator<char>(in)), {});
}

// What copy_tree refused with, or "" when it copied.
std::string refusal(const fs::path& from, const fs::path& to) {
    try {
        copy_tree(from, to);
    } catch (const CopyError& e) {
        return e.what();
    }
    return "";
}

mode_t mode_of(const fs::path& p) {
    struct stat st {};
    REQUIRE(::lstat(p.c_str(), &st) == 0);
    return st.st_mode & 07777;
}

}  // namespace

TEST_CASE("copy_tree: a link inside is copied as a link, one leading out is refused, and none is followed") {
    TempDir dir("copy-links");
    const fs::path bot = dir.path() / "bot";
    write(bot / "bot.py", "print('[]')\n");
    write(bot / "lib" / "util.py", "x = 1\n");
    fs::create_symlink("bot.py", bot / "main.py");
    fs::create_symlink("../bot.py", bot / "lib" / "up.py");
    fs::create_symlink("lib", bot / "alias");
    copy_tree(bot, dir.path() / "copy");
    CHECK(fs::read_symlink(dir.path() / "copy" / "main.py") == "bot.py");
    CHECK(fs::read_symlink(dir.path() / "copy" / "lib" / "up.py") == "../bot.py");
    CHECK(fs::is_symlink(dir.path() / "copy" / "alias"));  // a link to a folder is not walked
    CHECK(read(dir.path() / "copy" / "lib" / "util.py") == "x = 1\n");

    // Out of the bot: refused, naming the link and where it leads; nothing of the target read.
    write(dir.path() / "secret" / "key", "hunter2\n");
    fs::create_symlink("../../secret", bot / "lib" / "escape");
    CHECK(refusal(bot, dir.path() / "copy2") ==
          "lib/escape: a link that leads out of the folder (to ../../secret): links must point within it");
    fs::remove(bot / "lib" / "escape");
    fs::create_symlink("/etc/passwd", bot / "passwd");
    CHECK(refusal(bot, dir.path() / "copy3") ==
          "passwd: a link that leads out of the folder (to /etc/passwd): links must point within it");
    // The host's own files (an interpreter's folder) are copied as they are: the link is kept.
    copy_tree(bot, dir.path() / "host", {std::nullopt, true});
    CHECK(fs::read_symlink(dir.path() / "host" / "passwd") == "/etc/passwd");

    // A link named as the thing to copy is not followed either.
    fs::create_symlink(dir.path() / "secret", dir.path() / "linked");
    CHECK(refusal(dir.path() / "linked", dir.path() / "copy4").find("neither a folder nor a regular file") !=
          std::string::npos);
    CHECK_FALSE(fs::exists(dir.path() / "copy4"));
}

// Issue 39: judged by their text, "b -> a/.." stays inside; resolved through "a -> ." it leads out.
TEST_CASE("link_leads_out: a link is resolved through the tree's other links, as the kernel would") {
    const TreeLinks climb = {{"a", "."}, {"b", "a/.."}, {"c", "b/.."}, {"d", "c/.."}, {"x", "d/../etc/shadow"}};
    CHECK_FALSE(link_leads_out(climb, "a"));
    CHECK(link_leads_out(climb, "b") == "to a/.., through a -> .");
    CHECK(link_leads_out(climb, "x") == "to d/../etc/shadow, through d -> c/.., c -> b/.., b -> a/.., a -> .");
    // Inside, through links: a folder's link, a link to a link, one whose text alone reads as out.
    const TreeLinks inside = {{"lib", "src/inner"}, {"up", "lib/../../run.sh"}, {"main", "alias"},
                              {"alias", "src/bot.py"}, {"src/inner/back", "../../lib/x"}};
    for (const auto& [rel, target] : inside) {
        CAPTURE(rel);
        CHECK_FALSE(link_leads_out(inside, rel));
    }
    // Out through a link deeper in, an absolute one, a link in a folder, and a loop.
    const TreeLinks out = {{"etc", "/etc"},       {"via", "sub/etc/shadow"}, {"sub/etc", "../etc"},
                           {"sub/up", "../.."},   {"loop", "loop/x"}};
    CHECK(link_leads_out(out, "etc") == "to /etc");
    CHECK(link_leads_out(out, "via") == "to sub/etc/shadow, through sub/etc -> ../etc, etc -> /etc");
    CHECK(link_leads_out(out, "sub/up") == "to ../..");
    CHECK(link_leads_out(out, "loop") == "to loop/x, through more than 40 links in a row");
    // However it is built, one link costs a bounded walk: 10000 of them cannot take minutes.
    std::string far;
    for (int i = 0; i < 2000; ++i) far += "deep/";
    CHECK(link_leads_out({{"far", far}}, "far") == "to " + far + ", through a path too long to follow (over 65536 characters)");
}

TEST_CASE("copy_tree: a link that leads out through the copy's other links is refused, naming the way") {
    TempDir dir("copy-climb");
    const fs::path bot = dir.path() / "bot";
    fs::create_directories(bot);
    for (const auto& [name, target] : std::vector<std::pair<const char*, const char*>>{
             {"a", "."}, {"b", "a/.."}, {"c", "b/.."}, {"d", "c/.."}, {"x", "d/../etc/shadow"}})
        fs::create_symlink(target, bot / name);
    CHECK(refusal(bot, dir.path() / "copy") ==
          "b: a link that leads out of the folder (to a/.., through a -> .): links must point within it");
    // Resolved, a link whose text alone reads as leading out may stay inside: it is copied.
    const fs::path deep = dir.path() / "deep";
    fs::create_directories(deep / "src" / "inner");
    std::ofstream(deep / "run.sh") << "echo '[]'\n";
    fs::create_symlink("src/inner", deep / "lib");
    fs::create_symlink("lib/../../run.sh", deep / "up");
    copy_tree(deep, dir.path() / "deep-copy");
    CHECK(fs::read_symlink(dir.path() / "deep-copy" / "up") == "lib/../../run.sh");
    CHECK(read(dir.path() / "deep-copy" / "up") == "echo '[]'\n");
}

TEST_CASE("copy_tree: a sparse file stays sparse, FIFOs and caches are left out, modes are the copy's own") {
    TempDir dir("copy-sparse");
    const fs::path bot = dir.path() / "bot";
    fs::create_directories(bot);
    {
        // 64 MiB long, two blocks of data, holes elsewhere.
        UniqueFd fd(::open((bot / "sparse.bin").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644));
        REQUIRE(fd);
        REQUIRE(::pwrite(fd.get(), "head", 4, 0) == 4);
        REQUIRE(::pwrite(fd.get(), "middle", 6, 32 << 20) == 6);
        REQUIRE(::ftruncate(fd.get(), 64 << 20) == 0);
    }
    REQUIRE(::mkfifo((bot / "pipe").c_str(), 0644) == 0);  // opened, it would block the copy
    write(bot / "run.sh", "echo '[]'\n");
    fs::permissions(bot / "run.sh", fs::perms::owner_all);
    write(bot / "__pycache__" / "x.pyc", "cached");
    write(bot / ".git" / "HEAD", "ref");

    copy_tree(bot, dir.path() / "copy");
    const fs::path copy = dir.path() / "copy" / "sparse.bin";
    struct stat st {};
    REQUIRE(::stat(copy.c_str(), &st) == 0);
    CHECK(st.st_size == 64 << 20);
    CHECK(st.st_blocks * 512 < (1 << 20));  // not 64 MiB on disk
    const std::string bytes = read(copy);
    CHECK(bytes.substr(0, 4) == "head");
    CHECK(bytes.substr(32 << 20, 6) == "middle");
    CHECK(bytes[1 << 20] == '\0');
    CHECK_FALSE(fs::exists(dir.path() / "copy" / "pipe"));
    CHECK_FALSE(fs::exists(dir.path() / "copy" / "__pycache__"));
    CHECK_FALSE(fs::exists(dir.path() / "copy" / ".git"));
    // Nothing for other users but the host's own files.
    CHECK(mode_of(dir.path() / "copy") == 0750);
    CHECK(mode_of(dir.path() / "copy" / "run.sh") == 0750);
    CHECK(mode_of(copy) == 0640);
    copy_tree(bot, dir.path() / "public", {std::nullopt, true});
    CHECK(fs::exists(dir.path() / "public" / "__pycache__" / "x.pyc"));  // copied as they are
    CHECK(mode_of(dir.path() / "public") == 0755);
    CHECK(mode_of(dir.path() / "public" / "run.sh") == 0755);
    CHECK(mode_of(dir.path() / "public" / "sparse.bin") == 0644);
    // A single file as the thing to copy.
    copy_tree(bot / "run.sh", dir.path() / "one.sh");
    CHECK(read(dir.path() / "one.sh") == "echo '[]'\n");
}

TEST_CASE("copy_tree: over the files, bytes or depth a copy may hold, it is refused saying which") {
    TempDir dir("copy-limits");
    const fs::path many = dir.path() / "many";
    fs::create_directories(many);
    for (std::size_t i = 0; i <= max_tree_files; ++i) std::ofstream(many / ("f" + std::to_string(i)));
    CHECK(refusal(many, dir.path() / "c1") == "more than 10000 files, folders and links, the most a copy may hold");
    // Folders and links count as files do: each is an inode, copied and removed on every run.
    TempDir memory("copy-folders", gol::runner::testing::memory_folder());
    const fs::path folders = memory.path() / "folders";
    fs::create_directories(folders);
    for (std::size_t i = 0; i < max_tree_files / 2; ++i) {
        fs::create_directory(folders / ("d" + std::to_string(i)));
        fs::create_symlink("d" + std::to_string(i), folders / ("l" + std::to_string(i)));
    }
    CHECK_NOTHROW(copy_tree(folders, memory.path() / "c0"));
    fs::create_directory(folders / "one_more");
    CHECK(refusal(folders, memory.path() / "c0b") == "more than 10000 files, folders and links, the most a copy may hold");

    // Two sparse files of 200 MiB: counted at their full size, refused before 256 MiB are copied.
    const fs::path big = dir.path() / "big";
    fs::create_directories(big);
    for (const char* name : {"a", "b"}) {
        UniqueFd fd(::open((big / name).c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644));
        REQUIRE(::ftruncate(fd.get(), 200 << 20) == 0);
    }
    CHECK(refusal(big, dir.path() / "c2") ==
          "400 MiB of files or more, over the 256 MiB a copy may hold (a sparse file counts at its full size)");

    fs::path deep = dir.path() / "deep";
    for (int i = 0; i <= max_tree_depth + 1; ++i) deep /= "d";
    fs::create_directories(deep);
    CHECK(refusal(dir.path() / "deep", dir.path() / "c3") == "folders nested more than 100 deep");
}

TEST_CASE("remove_tree: removes links, never what they point to, and trees deeper than PATH_MAX") {
    TempDir dir("remove-tree");
    write(dir.path() / "outside" / "keep.txt", "keep");
    const fs::path tree = dir.path() / "tree";
    write(tree / "a" / "file", "x");
    fs::create_symlink(dir.path() / "outside", tree / "a" / "to-outside");
    fs::create_symlink(dir.path() / "outside" / "keep.txt", tree / "to-file");
    // 3000 levels of "dd/": 9000 bytes of path, more than a path may name.
    {
        UniqueFd at(::open(tree.c_str(), O_RDONLY | O_DIRECTORY));
        for (int i = 0; i < 3000; ++i) {
            REQUIRE(::mkdirat(at.get(), "dd", 0700) == 0);
            at = UniqueFd(::openat(at.get(), "dd", O_RDONLY | O_DIRECTORY));
            REQUIRE(at);
        }
        UniqueFd f(::openat(at.get(), "bottom", O_WRONLY | O_CREAT, 0600));
        REQUIRE(f);
    }
    CHECK(remove_tree(tree));
    CHECK_FALSE(fs::exists(tree));
    CHECK(read(dir.path() / "outside" / "keep.txt") == "keep");
    CHECK(remove_tree(tree));  // absent is removed
    // A link given as the tree goes, and its target stays.
    fs::create_symlink(dir.path() / "outside", dir.path() / "link");
    CHECK(remove_tree(dir.path() / "link"));
    CHECK(fs::exists(dir.path() / "outside" / "keep.txt"));
}
