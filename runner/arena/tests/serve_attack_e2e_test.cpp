// `runner serve` attacked as a public service is (docs/arena.md, "Limits"): whatever a client
// sends, the arena serves on, and one client's errors are its own.
#include "runner/arena/tests/serve_fixture.hpp"

#include <sched.h>

#include <cstring>

using namespace gol::runner;
using namespace gol::runner::testing;

namespace {

// The flood tests' server flags: a waiting room of 24, 8 from an address, and the keys `keys_text`.
std::vector<std::string> small_room(RunnerFixture& f, const std::string& keys_text) {
    const fs::path keys = f.root.path() / "keys";
    std::ofstream(keys) << keys_text;
    return {"--max-waiting", "24", "--max-per-address", "8", "--identify-time", "20000", "--keys", keys.string()};
}

}  // namespace

TEST_CASE("serve: a client under the training bot's name is refused, and the arena serves on") {
    RunnerFixture f;
    Server server(f, f.root.path() / "arena",
                  {"--training", std::string(TEST_BOTS_DIR) + "/block.py", "--training-after", "0.2", "--no-sandbox"});
    // Waiting alone, it would be paired with the training bot: a game of one name with itself.
    UniqueFd impostor = connect_to(server.port());
    send_all(impostor.get(), tlv::identification("Training/block"));
    CHECK(closed_by_arena(impostor.get()));
    CHECK(contains(server.wait_for("begins with Training/"), "\"Training/block\" begins with Training/"));
    UniqueFd other = connect_to(server.port());
    send_all(other.get(), tlv::identification("Training/idle"));
    CHECK(closed_by_arena(other.get()));

    // The arena is still up: a client plays its training game.
    const RunOutcome alone = run_client(f, python_client(server.port(), "alone/py"));
    check_exact(alone, "alone/py");
    CHECK(contains(server.stop(), "arena: stopped"));
}

TEST_CASE("serve: a client that drops and reconnects at once is let in, while waiting or in a game") {
    RunnerFixture f;
    Server server(f, f.root.path() / "arena", {});
    UniqueFd first = connect_to(server.port());
    send_all(first.get(), tlv::identification("again/raw"));
    server.wait_for_count("identified as again/raw", 1);
    // Dropped while it waits, and back at once.
    reset(first);
    UniqueFd second = connect_to(server.port());
    send_all(second.get(), tlv::identification("again/raw"));
    server.wait_for_count("identified as again/raw", 2);

    // Dropped in its game, and back at once: it waits for its name until its game has ended.
    auto other = std::async(std::launch::async, [&] { return run_client(f, python_client(server.port(), "other/py")); });
    tlv::Reader reader;
    CHECK(next_message(second.get(), reader).type == tlv::Type::start);
    reset(second);
    UniqueFd third = connect_to(server.port());
    send_all(third.get(), tlv::identification("again/raw"));
    check_exact(other.get(), "other/py");
    const std::string log = server.wait_for_count("identified as again/raw", 3);
    CHECK(contains(log, "other/py won by forfeit"));
    CHECK_FALSE(contains(log, "is connected already"));

    // Waiting connections are probed by TCP keepalive: one whose other end is gone breaks in seconds.
    SpawnSpec ss;
    ss.argv = {"ss", "-tno", "state", "established", "( sport = :" + std::to_string(server.port()) + " )"};
    const RunOutcome sockets = run_process(ss);
    INFO(sockets.out << sockets.err);
    CHECK(contains(sockets.out, "timer:(keepalive"));
    CHECK(contains(server.stop(), "arena: stopped"));
}

TEST_CASE("serve: a flood of connections that never identify keeps no one out, and costs few lines") {
    RunnerFixture f;
    Server server(f, f.root.path() / "arena", small_room(f, "keyed/raw k3y\nfriend/raw fr1\n"));
    // One address floods far past its limit; twenty more fill the waiting room and go on coming.
    std::vector<UniqueFd> flood;
    for (int i = 0; i < 40; ++i) flood.push_back(connect_to(server.port()));
    for (int round = 0; round < 3; ++round)
        for (int a = 1; a <= 20; ++a) {
            const std::string from = "127.0.1." + std::to_string(a);
            flood.push_back(connect_to(server.port(), from.c_str()));
        }
    // Clients with keys, from addresses of their own, are let in and paired.
    UniqueFd keyed = connect_to(server.port(), "127.0.0.2");
    send_all(keyed.get(), tlv::identification("keyed/raw k3y"));
    server.wait_for("identified as keyed/raw");
    // More of the flood while it waits: it is not the one that makes room.
    for (int i = 0; i < 40; ++i) flood.push_back(connect_to(server.port(), "127.0.2.1"));
    UniqueFd other = connect_to(server.port(), "127.0.0.3");
    send_all(other.get(), tlv::identification("friend/raw fr1"));
    tlv::Reader reader;
    CHECK(next_message(keyed.get(), reader).type == tlv::Type::start);
    const std::string log = server.stop();
    // The flood's address had its lines in full, then one that counts the rest.
    CHECK(contains(log, "127.0.0.1: "));
    CHECK(contains(log, "more connections closed in 10000 ms without a line each"));
    CHECK(contains(log, "over the limit per address"));
    CHECK(contains(log, "closed to make room"));
    CHECK(Server::count(log, "arena: 127.0.0.1:") <= 2);  // 1 in full, 1 that counts
    CHECK(Server::count(log, "arena: 127.0.2.1:") <= 2);
    CHECK_FALSE(contains(log, "(keyed/raw): closed: room made"));
}

TEST_CASE("serve: a flood of one connection from each of many addresses closes its own oldest, not a newer client") {
    RunnerFixture f;
    Server server(f, f.root.path() / "arena", small_room(f, "early/raw e4rly\nlate/raw l4te\n"));
    std::vector<UniqueFd> flood;
    for (int a = 1; a <= 30; ++a) flood.push_back(connect_to(server.port(), ("127.0.3." + std::to_string(a)).c_str()));
    server.wait_for_count("room made for a new connection", 6);
    // A client whose address sorts before the flood's, with more of the flood after it before it
    // identifies: each of them makes room too.
    UniqueFd early = connect_to(server.port(), "127.0.0.5");
    for (int a = 1; a <= 10; ++a) flood.push_back(connect_to(server.port(), ("127.0.4." + std::to_string(a)).c_str()));
    const std::string log = server.wait_for_count("room made for a new connection", 17);
    CHECK_FALSE(contains(log, "127.0.0.5"));
    send_all(early.get(), tlv::identification("early/raw e4rly"));
    server.wait_for("identified as early/raw");
    UniqueFd late = connect_to(server.port(), "127.0.0.6");
    send_all(late.get(), tlv::identification("late/raw l4te"));
    tlv::Reader reader;
    CHECK(next_message(early.get(), reader).type == tlv::Type::start);
    CHECK(contains(server.stop(), "arena: stopped"));
}

TEST_CASE("serve: guessed keys are locked out per address, the owner still plays, and guessing costs few lines") {
    RunnerFixture f;
    const fs::path keys = f.root.path() / "keys";
    std::ofstream(keys) << "alice/raw s3cret\nbob/raw b0b\n";
    Server server(f, f.root.path() / "arena", {"--keys", keys.string()});
    for (int i = 0; i < 30; ++i) {
        UniqueFd guess = connect_to(server.port(), "127.0.0.5");
        send_all(guess.get(), tlv::identification("alice/raw guess" + std::to_string(i)));
        CHECK(closed_by_arena(guess.get()));
    }
    // The right secret from the guessing address is not even checked now.
    UniqueFd lucky = connect_to(server.port(), "127.0.0.5");
    send_all(lucky.get(), tlv::identification("alice/raw s3cret"));
    CHECK(closed_by_arena(lucky.get()));
    // Guessers from many addresses, each wrong once: the name is guarded against them.
    for (int a = 1; a <= 12; ++a) {
        const std::string from = "127.0.3." + std::to_string(a);
        UniqueFd guess = connect_to(server.port(), from.c_str());
        send_all(guess.get(), tlv::identification("alice/raw x" + std::to_string(a)));
        CHECK(closed_by_arena(guess.get()));
    }
    UniqueFd again = connect_to(server.port(), "127.0.3.1");
    send_all(again.get(), tlv::identification("alice/raw s3cret"));
    CHECK(closed_by_arena(again.get()));
    // The owner, from its own address, plays.
    CHECK(paired(server, "alice/raw s3cret", "alice/raw", "127.0.0.6", "bob/raw b0b", "127.0.0.7"));
    const std::string log = server.stop();
    CHECK(contains(log, "not checked (secrets being guessed)"));  // counted in 127.0.0.5's summary
    CHECK(contains(log, "more connections closed in 10000 ms without a line each"));
    CHECK(Server::count(log, "arena: 127.0.0.5:") <= 2);
    CHECK_FALSE(contains(log, "s3cret"));
}

TEST_CASE("serve: a --clock game is bounded by --generations too, so a fast pair cannot make a record without end") {
    RunnerFixture f;
    // The fixture's --generations 40 with a clock far longer than the game takes.
    Server server(f, f.root.path() / "arena", {"--clock", "3600"});
    const auto [a, b] = play(f, python_client(server.port(), "fast/py"), cpp_client(server.port(), "quick/cpp"));
    check_exact(a, "fast/py");
    check_exact(b, "quick/cpp");
    // Each plants a still life a turn: neither dies out, so the game ends at the bound, not the clock.
    CHECK(contains(server.wait_for("after 40 generations"), "after 40 generations"));
    server.stop();
}

TEST_CASE("serve: an open arena's growth is bounded: new names per address, names listed, games per name") {
    RunnerFixture f;
    const fs::path results = f.root.path() / "arena";
    Server server(f, results, {"--names-per-address", "2", "--max-names", "3", "--games-per-name", "1"});
    const auto refused = [&](const char* name, const char* from, const std::string& why) {
        UniqueFd c = connect_to(server.port(), from);
        send_all(c.get(), tlv::identification(name));
        CHECK(closed_by_arena(c.get()));
        CHECK(contains(server.wait_for(why), why));
    };
    // Two clients of one address play under two new names, then leave.
    CHECK(paired(server, "a/raw", "a/raw", "127.0.0.11", "b/raw", "127.0.0.11"));
    server.wait_for_count(" won by forfeit", 1);
    refused("c/raw", "127.0.0.11", "its address brought 2 new names to play in the last hour, its most");
    // A new name waiting for its first game counts: the next would take the arena past its most
    // when the two are paired.
    UniqueFd c = connect_to(server.port(), "127.0.0.12");
    send_all(c.get(), tlv::identification("c/raw"));
    server.wait_for("identified as c/raw");
    refused("d/raw", "127.0.0.13",
            "the arena lists 3 names, those waiting for their first game among them, its most: \"d/raw\" is not taken "
            "(--max-names)");
    refused("a/raw", "127.0.0.15", "the name \"a/raw\" began 1 games in the last hour, its most (--games-per-name)");
    server.stop();
    // The pages were made off the serving thread, the leaderboard once more at the end.
    CHECK(fs::exists(results / "leaderboard.html"));
}

// A client whose machine vanishes while it waits (no FIN, no reset: a route here drops all the
// arena sends it) still has a connection that stands to TCP until keepalive's probes go
// unanswered. It is never paired meanwhile, and it is closed within seconds, its name freed.
TEST_CASE("serve: a waiting client that vanished without a word is never paired, and is closed in seconds") {
    // A network of the test's own, where a route can drop what goes to one address: root only.
    if (::unshare(CLONE_NEWNET) != 0) {
        MESSAGE("skipped: no network namespace of its own (" << std::strerror(errno) << ")");
        return;
    }
    auto ip = [](std::vector<std::string> args) {
        SpawnSpec spec;
        spec.argv = {"ip"};
        spec.argv.insert(spec.argv.end(), args.begin(), args.end());
        const RunOutcome r = run_process(spec);
        INFO(r.err);
        REQUIRE(r.exit_status == 0);
    };
    ip({"link", "set", "lo", "up"});
    RunnerFixture f;
    Server server(f, f.root.path() / "arena", {});
    UniqueFd gone = connect_to(server.port(), "127.0.0.2");
    send_all(gone.get(), tlv::identification("gone/raw"));
    server.wait_for("identified as gone/raw");
    ip({"route", "add", "blackhole", "127.0.0.2/32", "table", "local"});
    // Its last answer older than the 100 ms that count as fresh when a partner comes.
    std::this_thread::sleep_for(300ms);
    UniqueFd stays = connect_to(server.port(), "127.0.0.3");
    send_all(stays.get(), tlv::identification("stays/raw"));
    const std::string log = server.wait_for("(gone/raw): closed");
    CHECK_FALSE(contains(log, " vs "));

    // Its name is free: a client under it is let in, and paired with the one that stayed.
    UniqueFd back = connect_to(server.port(), "127.0.0.4");
    send_all(back.get(), tlv::identification("gone/raw"));
    tlv::Reader reader;
    CHECK(next_message(stays.get(), reader).type == tlv::Type::start);
    CHECK(contains(server.wait_for(" vs "), "gone/raw"));
    reset(stays);
    reset(back);
    CHECK(contains(server.stop(), "arena: stopped"));
}

// A client whose process hangs while it waits (its machine still answers for it) keeps its name
// only from others: the same name from its own address (the client restarted) replaces it.
TEST_CASE("serve: without keys, a waiting client is replaced by a new connection under its name from its address only") {
    RunnerFixture f;
    Server server(f, f.root.path() / "arena", {});
    UniqueFd hung = connect_to(server.port(), "127.0.0.6");
    send_all(hung.get(), tlv::identification("hung/raw"));
    server.wait_for("identified as hung/raw");
    UniqueFd elsewhere = connect_to(server.port(), "127.0.0.7");
    send_all(elsewhere.get(), tlv::identification("hung/raw"));
    CHECK(closed_by_arena(elsewhere.get()));
    CHECK(contains(server.wait_for("is connected already"), "127.0.0.7"));

    UniqueFd restarted = connect_to(server.port(), "127.0.0.6");
    send_all(restarted.get(), tlv::identification("hung/raw"));
    CHECK(closed_by_arena(hung.get()));
    const std::string log = server.wait_for_count("identified as hung/raw", 2);
    CHECK(contains(log, "closed: a new connection came under its name from its address"));
    reset(restarted);
    CHECK(contains(server.stop(), "arena: stopped"));
}
