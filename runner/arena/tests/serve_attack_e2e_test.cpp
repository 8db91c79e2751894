// `runner serve` attacked as a public service is (docs/arena.md, "Limits"): whatever a client
// sends, the arena serves on, and one client's errors are its own.
#include "runner/arena/tests/serve_fixture.hpp"

using namespace gol::runner;
using namespace gol::runner::testing;

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
