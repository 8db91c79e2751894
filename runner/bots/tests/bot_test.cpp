#include "runner/bots/bot.hpp"
#include "runner/bots/bot_build.hpp"
#include "runner/bots/content_hash.hpp"
#include "runner/sys/copy_tree.hpp"
#include "runner/sys/temp_dir.hpp"

#include <doctest/doctest.h>
#include <sys/stat.h>

#include <fstream>

using namespace gol::runner;
namespace fs = std::filesystem;

namespace {

void write(const fs::path& p, const std::string& text) {
    fs::create_directories(p.parent_path());
    std::ofstream(p) << text;
}

std::string manifest_error(const std::string& manifest) {
    TempDir dir("bot-test");
    write(dir.path() / "b" / "bot.json", manifest);
    try {
        read_manifest(dir.path() / "b");
    } catch (const BotError& e) {
        std::string msg = e.what();
        REQUIRE(msg.find("bot.json") != std::string::npos);  // every message names the file
        return msg;
    }
    return "";
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("manifest: run, build, name, protocol and warm are read, relative programs resolve") {
    TempDir dir("bot-test");
    write(dir.path() / "alpha" / "bot.json",
          R"({"run": ["./go", "--fast"], "build": "make", "name": "Alpha Bot", "protocol": "stdin"})");
    write(dir.path() / "alpha" / "go", "");
    BotSpec bot = read_manifest(dir.path() / "alpha");
    CHECK(bot.name == "Alpha Bot");
    CHECK(bot.run == std::vector<std::string>{(dir.path() / "alpha" / "go").string(), "--fast"});
    CHECK(bot.build == "make");
    CHECK(bot.protocol == Protocol::stdin);
    CHECK(bot.dir == dir.path() / "alpha");

    write(dir.path() / "beta" / "bot.json", R"({"run": ["python3", "main.py"]})");
    BotSpec beta = read_manifest(dir.path() / "beta");
    CHECK(beta.name == "beta");
    CHECK(beta.run[0] == "python3");  // not in the bot directory: looked up in PATH
    CHECK(beta.protocol == Protocol::argv);
    CHECK(beta.warm);  // python3 bots run warm unless their manifest says otherwise

    write(dir.path() / "gamma" / "bot.json", R"({"run": ["python3", "main.py"], "warm": false})");
    CHECK_FALSE(read_manifest(dir.path() / "gamma").warm);
    write(dir.path() / "delta" / "bot.json", R"({"run": ["python3", "main.py"], "warm": true})");
    CHECK(read_manifest(dir.path() / "delta").warm);
}

TEST_CASE("manifest: every mistake names the field") {
    CHECK(contains(manifest_error("{"), "invalid JSON"));
    CHECK(contains(manifest_error(R"({"run": ["x"], "name": -368934809474e51615})"), "invalid JSON"));  // found by fuzz-config
    CHECK(contains(manifest_error("[]"), "must be a JSON object with a \"run\" field"));
    CHECK(contains(manifest_error("{}"), "missing \"run\""));
    CHECK(contains(manifest_error(R"({"run": "python3 bot.py"})"), "\"run\" is \"python3 bot.py\", not a non-empty array"));
    CHECK(contains(manifest_error(R"({"run": []})"), "\"run\" is [], not a non-empty array"));
    CHECK(contains(manifest_error(R"({"run": [1]})"), "\"run\" is [1], not a non-empty array"));
    CHECK(contains(manifest_error(R"({"run": ["x"], "runn": 1})"), "unknown key \"runn\""));
    CHECK(contains(manifest_error(R"({"run": ["x"], "build": ["make"]})"), "\"build\" is [\"make\"], not a string (a shell command)"));
    CHECK(contains(manifest_error(R"({"run": ["x"], "name": ""})"), "\"name\" is \"\", not a non-empty string of at most 64 characters"));
    CHECK(contains(manifest_error(R"({"run": ["x"], "protocol": "tcp"})"), "\"protocol\" is \"tcp\", not \"argv\", \"stdin\", \"persistent\" or \"tlv\""));
    CHECK(contains(manifest_error(R"({"run": ["x"], "warm": 3})"), "\"warm\" is 3, not true or false (false: a new interpreter per move)"));
    CHECK(contains(manifest_error(R"({"run": ["x"], "warm": "false"})"), "\"warm\" is \"false\", not true or false"));
    CHECK(contains(manifest_error(R"({"run": ["x"], "cold": true})"), "allowed: run, build, name, protocol, warm"));
}

TEST_CASE("single-file bots are classified by extension") {
    TempDir dir("bot-test");
    for (const char* f : {"a.py", "b.rb", "c.js", "d.sh", "e.pl", "f.c", "g.cpp", "h.cc", "Main.java", "notes.xyz"})
        write(dir.path() / f, "");
    CHECK(single_file_bot(dir.path() / "a.py").kind == SourceKind::python);
    CHECK(single_file_bot(dir.path() / "a.py").name == "a");
    CHECK(single_file_bot(dir.path() / "a.py").dir == dir.path());
    CHECK(single_file_bot(dir.path() / "h.cc").kind == SourceKind::cpp);
    CHECK(single_file_bot(dir.path() / "Main.java").kind == SourceKind::java);
    CHECK_THROWS_WITH_AS(single_file_bot(dir.path() / "notes.xyz"), doctest::Contains(".py .rb .js .sh"), BotError);
    ::chmod((dir.path() / "notes.xyz").c_str(), 0755);
    CHECK(single_file_bot(dir.path() / "notes.xyz").kind == SourceKind::executable);
}

TEST_CASE("bots are found by path or by name under the bots folder") {
    TempDir dir("bot-test");
    write(dir.path() / "zeta.py", "");
    write(dir.path() / "eta" / "bot.json", R"({"run": ["sh", "x.sh"]})");
    write(dir.path() / "empty" / "readme", "");
    CHECK(find_bot("zeta", dir.path()).kind == SourceKind::python);
    CHECK(find_bot("eta", dir.path()).kind == SourceKind::manifest);
    CHECK(find_bot("zeta.py", dir.path()).name == "zeta");
    CHECK(find_bot((dir.path() / "zeta.py").string(), "/nonexistent").name == "zeta");
    // A path without its extension, as README's `runner duel bots/gliders bots/farmer`.
    CHECK(find_bot((dir.path() / "zeta").string(), "/nonexistent").kind == SourceKind::python);
    CHECK_THROWS_WITH_AS(find_bot("nobody", dir.path()), doctest::Contains("no bot named \"nobody\""), BotError);
    CHECK_THROWS_WITH_AS(find_bot((dir.path() / "empty").string(), dir.path()), doctest::Contains("needs a bot.json"),
                         BotError);
}

TEST_CASE("discovery lists usable bots and reasons for the rest, skipping documentation") {
    TempDir dir("bot-test");
    write(dir.path() / "good.py", "");
    write(dir.path() / "README.md", "");
    write(dir.path() / "notes.txt", "");
    write(dir.path() / ".hidden.py", "");
    write(dir.path() / "broken" / "bot.json", "{");
    write(dir.path() / "weird.dat", "");
    std::vector<Discovered> found = discover_bots(dir.path());
    REQUIRE(found.size() == 3);
    CHECK(found[0].path.filename() == "broken");
    CHECK_FALSE(found[0].bot.has_value());
    CHECK(contains(found[0].error, "invalid JSON"));
    CHECK(found[1].bot->name == "good");
    CHECK(found[2].path.filename() == "weird.dat");
    CHECK(contains(found[2].error, "cannot tell how to run"));
}

TEST_CASE("builds: compiled once into the cache, failures report the compiler's last lines") {
    TempDir dir("bot-test");
    TempDir cache("bot-cache");
    write(dir.path() / "ok.c", "#include <stdio.h>\nint main(void){puts(\"[]\");return 0;}\n");
    BuildOptions options{cache.path()};
    PreparedBot first = prepare_bot(single_file_bot(dir.path() / "ok.c"), options);
    CHECK(fs::exists(first.command[0]));
    CHECK(first.command[0].starts_with(cache.path().string()));
    auto stamp = fs::last_write_time(first.command[0]);
    PreparedBot again = prepare_bot(single_file_bot(dir.path() / "ok.c"), options);
    CHECK(again.command == first.command);
    CHECK(fs::last_write_time(again.command[0]) == stamp);

    write(dir.path() / "bad.cpp", "int main() { return undeclared_thing; }\n");
    CHECK_THROWS_WITH_AS(prepare_bot(single_file_bot(dir.path() / "bad.cpp"), options),
                         doctest::Contains("undeclared_thing"), BotError);
}

TEST_CASE("builds: a manifest build runs once per content, on a copy that the bot plays from") {
    TempDir dir("bot-test");
    TempDir cache("bot-cache");
    const fs::path bot = dir.path() / "m";
    // The build also touches its manifest, as formatters and package managers do.
    write(bot / "bot.json", R"({"run": ["./out.sh"], "build": "printf 'echo []' > out.sh; chmod +x out.sh; )"
                            R"(touch bot.json; od -An -N8 -tx8 /dev/urandom > stamp"})");
    BuildOptions options{cache.path()};
    PreparedBot a = prepare_bot(read_manifest(bot), options);
    PreparedBot b = prepare_bot(read_manifest(bot), options);
    CHECK(a.hash == b.hash);
    CHECK(a.dir == b.dir);
    CHECK(a.dir.string().starts_with(cache.path().string()));
    CHECK(a.command[0] == (a.dir / "out.sh").string());
    std::ifstream stamp(a.dir / "stamp");
    std::string once((std::istreambuf_iterator<char>(stamp)), {});
    CHECK(once.size() > 8);  // built once: the second call found the first build
    CHECK_FALSE(fs::exists(bot / "out.sh"));
    CHECK_FALSE(fs::exists(bot / "stamp"));
    CHECK(hash_directory(bot) == a.hash);

    write(bot / "extra.txt", "changed");
    PreparedBot c = prepare_bot(read_manifest(bot), options);
    CHECK(c.hash != a.hash);
    CHECK(c.dir != a.dir);
}

// Issue 28: two `truncate -s 1G` files became 2 GiB in the cache, kept across runs.
TEST_CASE("builds: what a build leaves is capped like a bot's folder, and a sparse file stays sparse") {
    TempDir dir("bot-test");
    TempDir cache("bot-cache");
    write(dir.path() / "huge" / "bot.json",
          R"({"run": ["sh", "run.sh"], "build": "truncate -s 1G a; truncate -s 1G b"})");
    write(dir.path() / "huge" / "run.sh", "echo '[]'\n");
    CHECK_THROWS_WITH_AS(prepare_bot(read_manifest(dir.path() / "huge"), BuildOptions{cache.path()}),
                         "huge: build \"truncate -s 1G a; truncate -s 1G b\" left more than the build cache keeps: "
                         "1024 MiB of files or more, over the 256 MiB a copy may hold (a sparse file counts at its "
                         "full size); nothing was cached",
                         BotError);
    CHECK(fs::is_empty(cache.path() / "builds"));  // nor anything half-made

    write(dir.path() / "many" / "bot.json", R"({"run": ["sh", "run.sh"], "build": "seq 10001 | xargs touch"})");
    write(dir.path() / "many" / "run.sh", "echo '[]'\n");
    CHECK_THROWS_WITH_AS(prepare_bot(read_manifest(dir.path() / "many"), BuildOptions{cache.path()}),
                         doctest::Contains("more than 10000 files, folders and links, the most a copy may hold; nothing was cached"),
                         BotError);
    CHECK(fs::is_empty(cache.path() / "builds"));

    write(dir.path() / "holes" / "bot.json", R"({"run": ["sh", "run.sh"], "build": "truncate -s 200M table"})");
    write(dir.path() / "holes" / "run.sh", "echo '[]'\n");
    const PreparedBot holes = prepare_bot(read_manifest(dir.path() / "holes"), BuildOptions{cache.path()});
    struct stat st {};
    REQUIRE(::stat((holes.dir / "table").c_str(), &st) == 0);
    CHECK(st.st_size == 200 << 20);
    CHECK(st.st_blocks * 512 < (1 << 20));
}

TEST_CASE("builds: a missing interpreter is reported before any game") {
    TempDir dir("bot-test");
    write(dir.path() / "m" / "bot.json", R"({"run": ["no-such-interpreter-xyz", "bot"]})");
    TempDir cache("bot-cache");
    CHECK_THROWS_WITH_AS(prepare_bot(read_manifest(dir.path() / "m"), BuildOptions{cache.path()}),
                         doctest::Contains("no-such-interpreter-xyz is not installed"), BotError);
}

// A manifest is a stranger's file: a FIFO would block discovery for ever, a link to /dev/zero
// grow the runner without end, and a link may lead anywhere on the host.
TEST_CASE("manifest: only a regular file of at most 64 KiB, never waited on nor followed") {
    TempDir dir("bot-test");
    const fs::path fifo = dir.path() / "fifo";
    fs::create_directories(fifo);
    REQUIRE(::mkfifo((fifo / "bot.json").c_str(), 0644) == 0);
    const fs::path zero = dir.path() / "zero";
    fs::create_directories(zero);
    fs::create_symlink("/dev/zero", zero / "bot.json");
    const fs::path linked = dir.path() / "linked";
    write(dir.path() / "elsewhere.json", R"({"run": ["./bot"]})");
    fs::create_directories(linked);
    fs::create_symlink(dir.path() / "elsewhere.json", linked / "bot.json");
    const fs::path big = dir.path() / "big";
    write(big / "bot.json", R"({"run": ["./bot"], "build": ")" + std::string(70000, 'x') + "\"}");
    const fs::path folder = dir.path() / "folder";
    fs::create_directories(folder / "bot.json");

    auto error = [](const fs::path& bot) {
        try {
            read_manifest(bot);
        } catch (const BotError& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    CHECK(contains(error(fifo), "bot.json is a FIFO, not a regular file (a manifest is a plain JSON file of at most 64 KiB)"));
    CHECK(contains(error(zero), "is a symbolic link, not a regular file"));
    CHECK(contains(error(linked), "is a symbolic link, not a regular file"));
    CHECK(contains(error(big), "is over 65536 bytes"));
    CHECK(contains(error(folder), "is a folder, not a regular file"));
    // Discovery goes on past them, each with its reason.
    write(dir.path() / "good" / "bot.json", R"({"run": ["python3", "bot.py"]})");
    int usable = 0, refused = 0;
    for (const Discovered& d : discover_bots(dir.path())) {
        if (d.bot) ++usable;
        if (contains(d.error, "not a regular file") || contains(d.error, "is over 65536 bytes")) ++refused;
    }
    CHECK(usable == 1);
    CHECK(refused == 5);
}

// Links in and to bots, as a contestant and a host make them.
TEST_CASE("links: inside a bot they are kept, out of it refused, and a linked bot is its target") {
    TempDir dir("bot-test");
    const fs::path bots = dir.path() / "bots";
    // An ordinary link inside a bot, and one that leads out of it.
    write(bots / "inner" / "bot.py", "print('[]')\n");
    fs::create_symlink("bot.py", bots / "inner" / "main.py");
    write(bots / "inner" / "bot.json", R"({"run": ["python3", "main.py"]})");
    write(bots / "outer" / "bot.json", R"({"run": ["python3", "bot.py"]})");
    write(bots / "outer" / "bot.py", "print('[]')\n");
    fs::create_symlink("/etc/passwd", bots / "outer" / "secret");
    fs::create_directories(bots / "climber" / "sub");
    write(bots / "climber" / "bot.json", R"({"run": ["python3", "bot.py"]})");
    fs::create_symlink("../../elsewhere", bots / "climber" / "sub" / "up");
    // A host's link to a bot kept elsewhere, as a folder and as a file.
    write(dir.path() / "kept" / "far" / "bot.json", R"({"run": ["python3", "bot.py"]})");
    write(dir.path() / "kept" / "far" / "bot.py", "print('[]')\n");
    write(dir.path() / "kept" / "one.py", "print('[]')\n");
    fs::create_symlink(dir.path() / "kept" / "far", bots / "linked");
    fs::create_symlink(dir.path() / "kept" / "one.py", bots / "single.py");

    const PreparedBot inner = prepare_bot(read_manifest(bots / "inner"), BuildOptions{dir.path() / "cache"});
    CHECK(inner.hash.size() == 64);
    // Its staged copy keeps the link as a link, next to its target.
    copy_tree(bots / "inner", dir.path() / "copy");
    CHECK(fs::is_symlink(dir.path() / "copy" / "main.py"));
    CHECK(fs::read_symlink(dir.path() / "copy" / "main.py") == "bot.py");
    CHECK(fs::is_regular_file(dir.path() / "copy" / "bot.py"));

    auto refusal = [&](const char* name) {
        try {
            prepare_bot(read_manifest(bots / name), BuildOptions{dir.path() / "cache"});
        } catch (const std::exception& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    CHECK(contains(refusal("outer"), "the link leads out of the bot's folder (to /etc/passwd)"));
    CHECK(contains(refusal("climber"), "the link leads out of the bot's folder (to ../../elsewhere)"));

    const BotSpec linked = read_manifest(bots / "linked");
    CHECK(linked.name == "linked");
    CHECK(linked.dir == fs::canonical(dir.path() / "kept" / "far"));
    const BotSpec single = single_file_bot(bots / "single.py");
    CHECK(single.name == "single");
    CHECK(single.path == fs::canonical(dir.path() / "kept" / "one.py"));
    // The target's bytes are hashed, not the link's text: an edit of the target replays its games.
    const std::string before = prepare_bot(single, BuildOptions{dir.path() / "cache"}).hash;
    write(dir.path() / "kept" / "one.py", "print('[[0,0]]')\n");
    CHECK(prepare_bot(single, BuildOptions{dir.path() / "cache"}).hash != before);
}
