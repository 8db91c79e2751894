// move_forfeit: every kind of outcome, for each way a move runs, to the forfeit it earns.
#include "runner/bots/move_forfeit.hpp"

#include "runner/bots/bot_player.hpp"
#include "runner/sandbox/sandbox.hpp"

#include <doctest/doctest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>
#include <vector>

using namespace gol::runner;
using namespace std::chrono_literals;

namespace {

bool has(const std::optional<Forfeit>& f, ForfeitKind kind, const std::string& part) {
    return f && f->kind == kind && f->detail.find(part) != std::string::npos;
}

ForfeitRules rules(ForfeitRules::Run run) {
    ForfeitRules r;
    r.run = run;
    r.time_limit = 300ms;
    r.stdout_cap = 1000;
    r.limits = ResourceLimits{std::uint64_t{128} << 20, 2, std::uint64_t{8} << 20, 64, 16};
    r.tmp_bytes = std::uint64_t{64} << 20;
    return r;
}

MoveOutcome outcome(MoveOutcome::Kind kind) {
    MoveOutcome o;
    o.kind = kind;
    return o;
}

MoveOutcome ended(int exit_status, int signal, std::string_view err = {}) {
    MoveOutcome o = outcome(MoveOutcome::Kind::ended);
    o.ended = {exit_status, signal};
    o.err = err;
    return o;
}

}  // namespace

TEST_CASE("move forfeit: a reply is left to the protocol, but a persistent one over its CPU time") {
    using Run = ForfeitRules::Run;
    for (Run run : {Run::cold, Run::warm, Run::persistent}) CHECK_FALSE(move_forfeit(outcome(MoveOutcome::Kind::replied), rules(run)));
    MoveOutcome busy = outcome(MoveOutcome::Kind::replied);
    busy.cpu = 2500ms;
    CHECK(has(move_forfeit(busy, rules(Run::persistent)), ForfeitKind::resource_limit,
              "CPU time limit of 2 s per move (used 2.50 s)"));
    CHECK_FALSE(move_forfeit(busy, rules(Run::cold)));  // RLIMIT_CPU's SIGXCPU tells there
}

TEST_CASE("move forfeit: timeouts and output caps in each protocol's words") {
    using Run = ForfeitRules::Run;
    CHECK(has(move_forfeit(outcome(MoveOutcome::Kind::timed_out), rules(Run::cold)), ForfeitKind::timeout,
              "no reply within the limit of 300 ms per move: the time went into the bot's run"));
    CHECK(has(move_forfeit(outcome(MoveOutcome::Kind::timed_out), rules(Run::warm)), ForfeitKind::timeout,
              "its interpreter was started before the move"));
    CHECK(has(move_forfeit(outcome(MoveOutcome::Kind::timed_out), rules(Run::persistent)), ForfeitKind::timeout,
              "flush stdout after each reply line"));
    CHECK(has(move_forfeit(outcome(MoveOutcome::Kind::stdout_overflow), rules(Run::cold)), ForfeitKind::output_cap,
              "more than 1000 bytes on stdout (a reply is at most 30 pairs)"));
    CHECK(has(move_forfeit(outcome(MoveOutcome::Kind::stdout_overflow), rules(Run::persistent)), ForfeitKind::output_cap,
              "without a newline"));
    CHECK(has(move_forfeit(outcome(MoveOutcome::Kind::extra_output), rules(Run::persistent)), ForfeitKind::protocol,
              "more than one line"));
}

TEST_CASE("move forfeit: an end by status or signal as it was, never decoded from a wrapper") {
    using Run = ForfeitRules::Run;
    // 137 is a status a bot may exit with: bubblewrap's way of reporting a SIGKILL is not guessed.
    CHECK(has(move_forfeit(ended(137, 0), rules(Run::cold)), ForfeitKind::exit_status, "the bot exited with status 137"));
    CHECK(has(move_forfeit(ended(0, SIGKILL), rules(Run::cold)), ForfeitKind::signal, "killed by signal 9"));
    CHECK(has(move_forfeit(ended(1, 0, "Traceback\nValueError: x\n"), rules(Run::warm)), ForfeitKind::exit_status,
              "status 1; its stderr ends: ValueError: x"));
    // A persistent bot's every end comes before a reply, status 0 too.
    CHECK(has(move_forfeit(ended(0, 0), rules(Run::persistent)), ForfeitKind::exit_status,
              "the bot's process ended (exit status 0) before replying"));
    CHECK(has(move_forfeit(ended(0, SIGTERM), rules(Run::persistent)), ForfeitKind::signal, "killed by signal 15"));
}

TEST_CASE("move forfeit: a limit is named by its signal or by the runtime's words") {
    using Run = ForfeitRules::Run;
    CHECK(has(move_forfeit(ended(0, SIGXCPU), rules(Run::cold)), ForfeitKind::resource_limit, "CPU time limit of 2 s"));
    CHECK(has(move_forfeit(ended(0, SIGXFSZ), rules(Run::cold)), ForfeitKind::resource_limit, "file size limit of 8 MiB"));
    CHECK(has(move_forfeit(ended(1, 0, "MemoryError\n"), rules(Run::cold)), ForfeitKind::resource_limit,
              "memory limit of 128 MiB of address space (exit status 1)"));
    CHECK(has(move_forfeit(ended(1, 0, "OSError: [Errno 28] No space left on device"), rules(Run::persistent)),
              ForfeitKind::resource_limit, "64 MiB on /tmp, /dev/shm and $GOL_SCRATCH each"));
    CHECK(has(move_forfeit(ended(2, 0, "fork: Resource temporarily unavailable"), rules(Run::cold)),
              ForfeitKind::resource_limit, "process limit of 16"));
    // Without the sandbox there is no /tmp limit to blame.
    ForfeitRules plain = rules(Run::cold);
    plain.tmp_bytes = 0;
    CHECK(has(move_forfeit(ended(1, 0, "No space left on device"), plain), ForfeitKind::exit_status, "status 1"));
}

TEST_CASE("move forfeit: a death for memory in the bot's control group names the group's limit") {
    using Run = ForfeitRules::Run;
    ForfeitRules grouped = rules(Run::cold);
    grouped.group_memory = std::uint64_t{256} << 20;
    MoveOutcome killed = ended(0, SIGKILL);
    killed.out_of_memory = true;
    CHECK(has(move_forfeit(killed, grouped), ForfeitKind::resource_limit,
              "memory limit of 256 MiB (its processes, shared memory and files in memory, together)"));
    // A move whose process was killed for memory and that timed out is named for memory too.
    MoveOutcome slow = outcome(MoveOutcome::Kind::timed_out);
    slow.out_of_memory = true;
    CHECK(has(move_forfeit(slow, grouped), ForfeitKind::resource_limit, "the kernel killed one of its processes"));
    // A reply stands: a child it did not need died, the reply did not.
    MoveOutcome replied = outcome(MoveOutcome::Kind::replied);
    replied.out_of_memory = true;
    CHECK_FALSE(move_forfeit(replied, grouped));
    // Without a group there is no such limit to name: SIGKILL is a plain signal.
    CHECK(has(move_forfeit(killed, rules(Run::cold)), ForfeitKind::signal, "killed by signal 9"));
}

TEST_CASE("move forfeit: a start that failed, and an argument too long to start with") {
    MoveOutcome o = outcome(MoveOutcome::Kind::could_not_start);
    o.start_error = "could not start ./bot: No such file or directory";
    CHECK(has(move_forfeit(o, rules(ForfeitRules::Run::cold)), ForfeitKind::could_not_start, "No such file"));
    o.start_error = "could not start ./bot: Argument list too long";
    CHECK(has(move_forfeit(o, rules(ForfeitRules::Run::cold)), ForfeitKind::board_too_large, "Argument list too long"));
}

TEST_CASE("move forfeit: a per-move process's outcome in those terms") {
    RunOutcome run;
    run.kind = RunOutcome::Kind::exited;
    CHECK(move_outcome(run).kind == MoveOutcome::Kind::replied);
    run.exit_status = 137;
    CHECK(move_outcome(run).kind == MoveOutcome::Kind::ended);
    CHECK(move_outcome(run).ended.exit_status == 137);
}

// The bug this function's one input fixed: in the sandbox, a move's status was decoded as
// bubblewrap reports a signal, though the launcher reports the real one.
TEST_CASE("move forfeit: a sandboxed bot that exits with status 137 reads as such, as unsandboxed") {
    const WorkArea area{::geteuid() == 0};
    std::optional<Sandbox> sandbox;
    if (Sandbox::find_bubblewrap()) sandbox.emplace(*Sandbox::find_bubblewrap(), area);
    std::vector<Sandbox*> hosts = {nullptr};
    if (sandbox) hosts.push_back(&*sandbox);
    for (Sandbox* box : hosts) {
        CAPTURE(box != nullptr);
        PreparedBot bot;
        bot.spec.name = "exit137";
        bot.spec.dir = "/tmp";
        bot.dir = bot.spec.dir;
        bot.command = {"/bin/sh", "-c", "exit 137", "bot"};
        BotPlayer player(bot, {}, BotHost{area, box});
        const MoveReport m = player.move(R"({"y_size":3,"x_size":3,"board":{},"bot_id":1,"tick_id":0})");
        REQUIRE_FALSE(m.ok());
        CHECK(m.forfeit->kind == ForfeitKind::exit_status);
        CHECK(m.forfeit->detail == "the bot exited with status 137");
    }
}

TEST_CASE("move forfeit: Python 2 code run by python3, and a program the sandbox does not show, say what to do") {
    using Run = ForfeitRules::Run;
    const std::optional<Forfeit> py2 =
        move_forfeit(ended(1, 0, "    print json.dumps(move)\nSyntaxError: Missing parentheses in call to 'print'. Did you "
                                 "mean print(...)?\n"),
                     rules(Run::cold));
    CHECK(has(py2, ForfeitKind::exit_status, "this is Python 2 code"));
    CHECK(has(py2, ForfeitKind::exit_status, "--interpreter DIR"));
    CHECK_FALSE(has(move_forfeit(ended(1, 0, "SyntaxError: invalid syntax\n"), rules(Run::cold)), ForfeitKind::exit_status,
                    "Python 2"));

    MoveOutcome missing = outcome(MoveOutcome::Kind::could_not_start);
    missing.start_error = "could not start /opt/py2/bin/python2: No such file or directory";
    CHECK(has(move_forfeit(missing, rules(Run::cold)), ForfeitKind::could_not_start, "inside the sandbox, which shows /usr"));
    ForfeitRules plain = rules(Run::cold);
    plain.tmp_bytes = 0;  // no sandbox: the host's own view, nothing to explain
    CHECK(move_forfeit(missing, plain)->detail == missing.start_error);
}

TEST_CASE("move forfeit: a CPU-time limit judges a reply by its CPU time, and names the start-up allowance") {
    ForfeitRules r = rules(ForfeitRules::Run::cold);
    r.cpu_time = true;
    r.wall_limit = r.time_limit * 5;
    MoveOutcome o = outcome(MoveOutcome::Kind::replied);
    o.elapsed = std::chrono::milliseconds(900);  // waited, on a busy machine
    o.cpu = std::chrono::milliseconds(10);
    CHECK_FALSE(move_forfeit(o, r));
    o.cpu = std::chrono::milliseconds(450);
    CHECK(has(move_forfeit(o, r), ForfeitKind::timeout, "the bot used 450.0 ms of CPU time, over its limit of 300 ms"));
    // The wall clock's backstop, in words.
    CHECK(has(move_forfeit(outcome(MoveOutcome::Kind::timed_out), r), ForfeitKind::timeout,
              "1500 ms of wall-clock time (the backstop of a CPU-time limit of 300 ms)"));
    // Ended by the backstop on a busy machine after its CPU time passed the limit: told by that.
    MoveOutcome ended = outcome(MoveOutcome::Kind::timed_out);
    ended.cpu = std::chrono::milliseconds(450);
    CHECK(has(move_forfeit(ended, r), ForfeitKind::timeout, "the bot used 450.0 ms of CPU time, over its limit of 300 ms"));
    ended.cpu = std::chrono::milliseconds(100);
    CHECK(has(move_forfeit(ended, r), ForfeitKind::timeout, "the backstop of a CPU-time limit"));
    r.startup = true;
    CHECK(has(move_forfeit(o, r), ForfeitKind::timeout, "the start-up allowance of a first move"));
}

TEST_CASE("move forfeit: a JVM that cannot start is named, with where its flags come from") {
    const std::optional<Forfeit> jvm =
        move_forfeit(ended(1, 0, "Error occurred during initialization of VM\nCould not reserve enough space for object "
                                 "heap\nError: Could not create the Java Virtual Machine.\n"),
                     rules(ForfeitRules::Run::cold));
    CHECK(has(jvm, ForfeitKind::exit_status, "the JVM could not start under the memory limit"));
    CHECK(has(jvm, ForfeitKind::exit_status, "-Xmx of a quarter of --memory-limit"));
}

TEST_CASE("move forfeit: a move's wall-clock limit is at most what is left of its time bank, and a cut names the bank") {
    MoveRules rules_of_game{rules(ForfeitRules::Run::cold), rules(ForfeitRules::Run::cold), std::nullopt};
    rules_of_game.first.wall_limit = 5000ms;
    rules_of_game.later.wall_limit = 1000ms;
    CHECK(rules_of_game.of(true).wall_limit == 5000ms);  // no bank: its own limit
    CHECK(rules_of_game.of(true).time_bank_s == 0);

    // 339.2 ms left, rounded up: a move cut there has spent the bank.
    rules_of_game.bank = BankLeft{339200us, 5};
    const ForfeitRules cut = rules_of_game.of(true);
    CHECK(cut.wall_limit == 340ms);
    CHECK(cut.time_bank_s == 5);
    CHECK(cut.time_limit == 300ms);  // what its own limit was stays for the other words
    CHECK(has(move_forfeit(outcome(MoveOutcome::Kind::timed_out), cut), ForfeitKind::timeout,
              "no reply within the 340 ms left of its time bank of 5 s, which is now spent: the bot is not run "
              "again this game"));
    // The same words whichever way it runs, and in CPU-time mode, whose bank counts the wall clock.
    ForfeitRules persistent = cut;
    persistent.run = ForfeitRules::Run::persistent;
    persistent.cpu_time = true;
    CHECK(has(move_forfeit(outcome(MoveOutcome::Kind::timed_out), persistent), ForfeitKind::timeout,
              "340 ms left of its time bank of 5 s"));
    MoveOutcome spent = outcome(MoveOutcome::Kind::timed_out);
    spent.cpu = 400ms;  // over its CPU-time limit too: the bank is what ended it, and says so
    CHECK(has(move_forfeit(spent, persistent), ForfeitKind::timeout, "340 ms left of its time bank of 5 s"));

    // More left than its own limit: not cut, its own words.
    rules_of_game.bank = BankLeft{2s, 5};
    CHECK(rules_of_game.of(false).wall_limit == 1000ms);
    CHECK(rules_of_game.of(false).time_bank_s == 0);
    CHECK(rules_of_game.of(true).wall_limit == 2000ms);
}

// The hint for an argv bot that reads its board from stdin.
TEST_CASE("stdin hint: each language's words for empty stdin, for argv bots only") {
    for (const char* err : {"json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)",
                            "EOFError: EOF when reading a line", "  File \"bot.rb\", line 2: STDIN.read",
                            "SyntaxError: Unexpected end of JSON input", "JSON::ParserError: unexpected end of input"}) {
        CAPTURE(err);
        CHECK(stdin_hint(Protocol::argv, err).has_value());
        CHECK_FALSE(stdin_hint(Protocol::stdin, err).has_value());
        CHECK_FALSE(stdin_hint(Protocol::persistent, err).has_value());
    }
    CHECK_FALSE(stdin_hint(Protocol::argv, "ModuleNotFoundError: No module named 'numpy'").has_value());
    CHECK_FALSE(stdin_hint(Protocol::argv, "").has_value());
    CHECK(stdin_hint(Protocol::argv, "EOFError")->find("\"protocol\": \"stdin\"") != std::string::npos);
}
