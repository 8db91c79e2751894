// Content hashes: SHA-256 itself, and what hash_directory / hash_file see and never touch.
#include "runner/bots/content_hash.hpp"
#include "runner/sys/copy_tree.hpp"
#include "runner/sys/temp_dir.hpp"
#include "runner/testing/memory_folder.hpp"

#include <doctest/doctest.h>

#include <sys/stat.h>

#include <filesystem>
#include <fstream>

using namespace gol::runner;
namespace fs = std::filesystem;

namespace {

void write(const fs::path& file, const std::string& text) { std::ofstream(file, std::ios::binary) << text; }

// Why hashing `dir` was refused; empty when it was not.
std::string refusal(const fs::path& dir) {
    try {
        hash_directory(dir);
    } catch (const std::runtime_error& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("sha256: known test vectors, streamed in pieces, and hex() leaves the digest going") {
    CHECK(Sha256().hex() == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    CHECK(Sha256().add("abc").hex() == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    CHECK(Sha256().add("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq").hex() ==
          "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    Sha256 h;
    h.add("a");
    CHECK(h.hex() == "ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb");
    h.add("b").add("c");
    CHECK(h.hex() == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    // Fields are length-prefixed: "ab"+"c" and "a"+"bc" are different inputs.
    CHECK(Sha256().add_field("ab").add_field("c").hex() != Sha256().add_field("a").add_field("bc").hex());
    CHECK(Sha256().add_u64(1).hex() == Sha256().add(std::string_view("\1\0\0\0\0\0\0\0", 8)).hex());
}

TEST_CASE("content hash: a symlink counts as its target text and is never followed") {
    TempDir dir("hash-symlink");
    write(dir.path() / "bot.py", "print('hi')\n");
    write(dir.path() / "other.py", "print('ho')\n");
    const std::string plain = hash_directory(dir.path());
    fs::create_symlink("bot.py", dir.path() / "alias.py");
    const std::string with_link = hash_directory(dir.path());
    CHECK(with_link.size() == 64);
    CHECK(with_link != plain);
    CHECK(hash_directory(dir.path()) == with_link);
    // The target text is what counts.
    fs::remove(dir.path() / "alias.py");
    fs::create_symlink("other.py", dir.path() / "alias.py");
    CHECK(hash_directory(dir.path()) != with_link);

    // Followed, the first would read /proc's page map (gigabytes, without end) and the second
    // would walk the whole filesystem: this test would not finish. Both lead out of the bot,
    // which is refused by name.
    fs::create_symlink("/proc/self/pagemap", dir.path() / "pagemap");
    CHECK(refusal(dir.path()).find("pagemap: the link leads out of the bot's folder (to /proc/self/pagemap)") !=
          std::string::npos);
    fs::remove(dir.path() / "pagemap");
    fs::create_symlink("/", dir.path() / "root");
    CHECK_THROWS_AS(hash_directory(dir.path()), std::runtime_error);
    CHECK(hash_file(dir.path() / "root") == hash_file(dir.path() / "root"));
    CHECK(hash_file(dir.path() / "root").size() == 64);
}

TEST_CASE("content hash: a fifo is counted by type, never opened") {
    TempDir dir("hash-fifo");
    write(dir.path() / "bot.sh", "echo '[]'\n");
    const std::string plain = hash_directory(dir.path());
    // Opening a fifo for reading blocks until a writer comes: none ever does here.
    REQUIRE(::mkfifo((dir.path() / "pipe").c_str(), 0644) == 0);
    const std::string with_fifo = hash_directory(dir.path());
    CHECK(with_fifo != plain);
    CHECK(hash_directory(dir.path()) == with_fifo);
    CHECK(hash_file(dir.path() / "pipe") == hash_file(dir.path() / "pipe"));
}

TEST_CASE("content hash: executable bits count, read and write bits do not") {
    TempDir dir("hash-mode");
    const fs::path bot = dir.path() / "bot.sh";
    write(bot, "echo '[]'\n");
    fs::permissions(bot, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read | fs::perms::others_read);
    const std::string dir_hash = hash_directory(dir.path()), file_hash = hash_file(bot);

    fs::permissions(bot, fs::perms::owner_exec, fs::perm_options::add);  // chmod u+x
    CHECK(hash_directory(dir.path()) != dir_hash);
    CHECK(hash_file(bot) != file_hash);

    fs::permissions(bot, fs::perms::owner_exec, fs::perm_options::remove);
    fs::permissions(bot, fs::perms::group_read | fs::perms::others_read, fs::perm_options::remove);  // 600
    CHECK(hash_directory(dir.path()) == dir_hash);
    CHECK(hash_file(bot) == file_hash);
}

TEST_CASE("content hash: paths and bytes cannot be traded for each other, caches do not count") {
    TempDir one("hash-split-1"), two("hash-split-2");
    write(one.path() / "a", "bc");
    write(two.path() / "ab", "c");
    CHECK(hash_directory(one.path()) != hash_directory(two.path()));

    const std::string before = hash_directory(one.path());
    fs::create_directories(one.path() / ".git");
    write(one.path() / ".git" / "HEAD", "ref\n");
    CHECK(hash_directory(one.path()) == before);
    write(one.path() / "a", "bd");
    CHECK(hash_directory(one.path()) != before);
}

// Checked before a byte is read or copied: a 4 GiB sparse file would be copied whole into the
// sandbox, and read whole at every run.
TEST_CASE("content hash: a bot over the size or file-count limit is refused by name, unread") {
    TempDir dir("hash-limits");
    write(dir.path() / "bot.py", "print('[]')\n");
    {
        std::ofstream sparse(dir.path() / "sparse.bin");
    }
    fs::resize_file(dir.path() / "sparse.bin", std::uintmax_t{4} << 30);
    CHECK(refusal(dir.path()).find("the bot's files take 4096 MiB, over the 256 MiB a bot may take") != std::string::npos);
    CHECK_THROWS_AS(hash_file(dir.path() / "sparse.bin"), std::runtime_error);
    fs::remove(dir.path() / "sparse.bin");
    CHECK(hash_directory(dir.path()).size() == 64);

    // Empty files cost nothing but their number.
    for (std::size_t i = 0; i < max_tree_files; ++i) std::ofstream(dir.path() / ("f" + std::to_string(i)));
    const std::string over = "the bot has more than 10000 files, folders and links, the most a bot may have";
    CHECK(refusal(dir.path()).find(over) != std::string::npos);
    // Nor do empty folders: a folder counts as a file does.
    TempDir folders("hash-folders", gol::runner::testing::memory_folder());
    for (std::size_t i = 0; i < max_tree_files; ++i) fs::create_directory(folders.path() / ("d" + std::to_string(i)));
    CHECK(hash_directory(folders.path()).size() == 64);
    fs::create_directory(folders.path() / "d0" / "deeper");
    CHECK(refusal(folders.path()).find(over) != std::string::npos);
}
