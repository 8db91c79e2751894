// `runner serve` with real clients over TCP: the sample clients in Python and C++ keep their own
// boards and check each B against them, bad clients are closed while the arena serves on, the
// games are in the store's table, and a restart carries on.
#include "runner/arena/tests/serve_fixture.hpp"

using namespace gol::runner;
using namespace gol::runner::testing;

TEST_CASE("serve: clients in Python and C++ play with their own boards, bad clients are closed, the table counts, a restart carries on") {
    RunnerFixture f;
    const fs::path results = f.root.path() / "arena";
    {
        // Room for all the idle connections of one address: what is tested here is that they block no one.
        Server server(f, results, {"-j", "2", "--max-per-address", "200"});
        const int port = server.port();

        // Idle connections and a half-sent identification wait while everything else goes on.
        std::vector<UniqueFd> idle;
        for (int i = 0; i < 100; ++i) idle.push_back(connect_to(port));
        // From an address of its own, so that its line is not one of those summarised for the idle ones'.
        UniqueFd stalled = connect_to(port, "127.0.0.9");
        send_all(stalled.get(), std::string("I\x0a" "abc", 5));

        // Each of these is closed at once, with a line that says why.
        const std::vector<std::pair<std::string, std::string>> bad = {
            {"X", "a message of unknown type 'X'"},
            {std::string("I\xfb", 2), "'I' of length 251"},
            {std::string("I\x02\xc3\x28", 4), "not UTF-8"},
            {std::string("M\x00", 2), "sent 'M' before identifying"},
            {"I\x05" "flood" + std::string(100'000, 'x'), "out of turn"},
        };
        // Each from an address of its own: an address's first line in an interval is in full, the rest counted.
        int from = 20;
        for (const auto& [bytes, why] : bad) {
            UniqueFd c = connect_to(port, ("127.0.0." + std::to_string(++from)).c_str());
            ::send(c.get(), bytes.data(), bytes.size(), MSG_NOSIGNAL);
            CHECK(closed_by_arena(c.get()));
            CHECK(contains(server.wait_for(why), why));
        }

        // Two clients that keep their own board: every B equals their own count.
        const auto [alice, bob] = play(f, python_client(port, "alice/py"), cpp_client(port, "bob/cpp"));
        check_exact(alice, "alice/py");
        check_exact(bob, "bob/cpp");

        // A client that leaves at its first turn loses; the other gets its B.
        std::promise<void> identified;
        auto leaver = std::async(std::launch::async, [&] {
            UniqueFd c = connect_to(port);
            send_all(c.get(), tlv::identification("leaver/raw"));
            identified.set_value();
            tlv::Reader reader;
            while (next_message(c.get(), reader).type != tlv::Type::turn) {
            }
        });
        identified.get_future().wait();
        server.wait_for("identified as leaver/raw");
        const RunOutcome carol = run_client(f, python_client(port, "carol/py"));
        leaver.get();
        check_exact(carol, "carol/py");
        std::string log = server.wait_for("carol/py won by forfeit");
        CHECK(contains(log, "(leaver/raw: the client closed the connection)"));

        // The half-sent identification was closed at its deadline, and the idle ones too.
        CHECK(closed_by_arena(stalled.get()));
        CHECK(contains(server.log(), "no whole identification in time (5 bytes of one)"));
        CHECK(closed_by_arena(idle.back().get()));

        CHECK(contains(server.stop(), "arena: stopped"));
    }

    const RunOutcome table = f.runner({"table", "--results", results.string(), "--format", "json"});
    INFO(table.out << table.err);
    REQUIRE(table.exit_status == 0);
    const nlohmann::json j = nlohmann::json::parse(table.out);
    CHECK(j.dump().find("\"kd\"") != std::string::npos);
    for (const char* name : {"alice/py", "bob/cpp", "carol/py", "leaver/raw"}) CHECK(contains(table.out, name));

    // Restarted on the same store, the pair plays its second game, in the other seats.
    Server again(f, results, {});
    const auto [alice, bob] = play(f, python_client(again.port(), "alice/py"), cpp_client(again.port(), "bob/cpp"));
    check_exact(alice, "alice/py");
    check_exact(bob, "bob/cpp");
    CHECK(contains(again.wait_for("(game 2 of the pair) begins"), "(game 2 of the pair) begins"));
    again.stop();
}

TEST_CASE("serve: a client waiting alone plays the training bot, stored apart and not counted") {
    RunnerFixture f;
    const fs::path results = f.root.path() / "arena";
    {
        Server server(f, results,
                      {"--training", std::string(TEST_BOTS_DIR) + "/block.py", "--training-after", "0.2", "--no-sandbox"});
        const RunOutcome alone = run_client(f, python_client(server.port(), "alone/py"));
        check_exact(alone, "alone/py");
        CHECK(contains(alone.err, "alone/py: playing Training/block"));
        CHECK(contains(server.wait_for("training alone/py vs Training/block"), "training game"));
        server.stop();
    }
    const RunOutcome training = f.runner({"table", "--results", (results / "training").string()});
    INFO(training.out << training.err);
    CHECK(training.exit_status == 0);
    CHECK(contains(training.out, "Training/block"));
    const RunOutcome arena = f.runner({"table", "--results", results.string()});
    CHECK_FALSE(contains(arena.out, "alone/py"));
}

TEST_CASE("serve: a client that floods in its game loses it, and its opponent's B is exact") {
    RunnerFixture f;
    Server server(f, f.root.path() / "arena", {});
    std::promise<void> identified;
    auto flooder = std::async(std::launch::async, [&] {
        UniqueFd c = connect_to(server.port());
        send_all(c.get(), tlv::identification("flooder/raw"));
        identified.set_value();
        tlv::Reader reader;
        while (next_message(c.get(), reader).type != tlv::Type::turn) {
        }
        // Its move, a block that keeps it alive, then passes unasked, far more than it will ever be
        // asked for: the arena finds them at its next turn and closes it.
        std::string flood = tlv::move(std::vector<gol::Cell>{{20, 20}, {20, 21}, {21, 20}, {21, 21}});
        for (int i = 0; i < 20'000; ++i) flood += tlv::move({});
        ::send(c.get(), flood.data(), flood.size(), MSG_NOSIGNAL);
        return closed_by_arena(c.get());
    });
    identified.get_future().wait();
    server.wait_for("identified as flooder/raw");
    const RunOutcome carol = run_client(f, python_client(server.port(), "carol/py"));
    CHECK(flooder.get());
    check_exact(carol, "carol/py");
    const std::string log = server.wait_for("carol/py won by forfeit");
    CHECK(contains(log, "(flooder/raw: it sent a message out of turn, before its T)"));
    server.stop();
}

TEST_CASE("serve: the Ruby client keeps its own board too, against the Python one") {
    RunnerFixture f;
    Server server(f, f.root.path() / "arena", {});
    const auto [dora, erin] = play(f, ruby_client(server.port(), "dora/rb"), python_client(server.port(), "erin/py"));
    check_exact(dora, "dora/rb");
    check_exact(erin, "erin/py");
    CHECK(contains(server.stop(), "arena: stopped"));
}
