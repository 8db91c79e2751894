#include "runner/bots/move_forfeit.hpp"

#include "runner/game/protocol.hpp"

#include <signal.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

namespace gol::runner {

namespace {

// How much of a reply's stdout a report keeps, for the words on a forfeited turn.
constexpr std::size_t kOutputPreview = 200;

// "64 MiB".
std::string mib(std::uint64_t bytes) { return std::to_string(bytes >> 20) + " MiB"; }

// A resource-limit forfeit in words: which limit, how it showed, and what the bot can do.
Forfeit over_limit(const std::string& limit, const std::string& how, const char* fix) {
    return Forfeit{ForfeitKind::resource_limit, "the bot went over its " + limit + " (" + how + "): " + fix};
}

std::optional<Forfeit> limit_forfeit(const MoveOutcome& o, const ForfeitRules& r) {
    const ResourceLimits& limits = r.limits;
    const std::string cpu = "CPU time limit of " + std::to_string(limits.cpu_seconds) + " s per move";
    const std::string file = "file size limit of " + mib(limits.file_size);
    const std::string memory = "memory limit of " + mib(limits.address_space) + " of address space";
    const std::string processes = "process limit of " + std::to_string(limits.processes) + " processes and threads";
    const std::string tmp = "size limit of " + mib(r.tmp_bytes) + " on /tmp, /dev/shm and $GOL_SCRATCH each";
    if (o.ended.signal == SIGXCPU) return over_limit(cpu, "SIGXCPU", "its own work took that long; compute less per move");
    if (o.ended.signal == SIGXFSZ) return over_limit(file, "SIGXFSZ", "write smaller files");
    if (o.ended.signal == 0 && o.ended.exit_status == 0) return std::nullopt;
    // A limit, and what a runtime writes on stderr when it ran into it.
    struct Limit {
        const std::string& words;
        std::uint64_t value;
        const char* fix;
        std::vector<const char*> signs;
    };
    // Processes first: Java reports a thread it could not make as an OutOfMemoryError.
    for (const Limit& limit :
         {Limit{processes, limits.processes, "start fewer processes and threads",
                {"Resource temporarily unavailable", "Cannot fork", "unable to create native thread", "can't start new thread"}},
          Limit{memory, limits.address_space, "use less memory",
                {"MemoryError", "bad_alloc", "Cannot allocate memory", "out of memory", "OutOfMemoryError"}},
          Limit{file, limits.file_size, "write smaller files", {"File too large"}},
          Limit{tmp, r.tmp_bytes, "write less, and fewer files, there", {"No space left on device"}}})
        for (const char* sign : limit.signs)
            if (limit.value != 0 && o.err.find(sign) != std::string_view::npos)
                return over_limit(limit.words, o.ended.words(), limit.fix);
    return std::nullopt;
}

// What to do about an end whose stderr names its cause plainly: Python 2 code run by python3, a
// JVM that cannot start.
std::string hint(std::string_view err) {
    if (err.find("Missing parentheses in call to 'print'") != std::string_view::npos ||
        err.find("Missing parentheses in call to 'exec'") != std::string_view::npos)
        return " (this is Python 2 code, and a .py file runs with python3: give the bot a bot.json "
               "{\"run\": [\"python2\", \"FILE.py\"]}, and the host a python2, with --interpreter DIR when it lies "
               "outside /usr; docs/sandbox.md)";
    if (err.find("Could not create the Java Virtual Machine") != std::string_view::npos ||
        err.find("Could not reserve enough space") != std::string_view::npos)
        return " (the JVM could not start under the memory limit: the runner gives a java run -Xmx of a quarter of "
               "--memory-limit unless its command sizes the heap itself (check's \"command:\" line shows the flags); "
               "size it in the manifest's run, or raise --memory-limit)";
    return "";
}

Forfeit ended(const MoveOutcome& o, const ForfeitRules& r) {
    const Ended& e = o.ended;
    std::string how = r.run == ForfeitRules::Run::persistent ? "the bot's process ended (" + e.words() + ") before replying"
                      : e.signal ? "the bot was " + e.words()
                                 : "the bot exited with status " + std::to_string(e.exit_status);
    // A crash's traceback ends with the line that names the error.
    if (const std::vector<std::string> last = last_lines(o.err, 1); !last.empty()) how += "; its stderr ends: " + last[0];
    return Forfeit{e.signal ? ForfeitKind::signal : ForfeitKind::exit_status, how + hint(o.err)};
}

// "1000 ms", or "11000 ms (the time limit and the start-up allowance of a first move)".
std::string within(const ForfeitRules& r) {
    return std::to_string(r.time_limit.count()) + " ms" +
           (r.startup ? " (the time limit and the start-up allowance of a first move)" : "");
}

}  // namespace

MoveOutcome move_outcome(const RunOutcome& run) {
    MoveOutcome o;
    switch (run.kind) {
        case RunOutcome::Kind::exited:
        case RunOutcome::Kind::signaled:
            o.ended = {run.exit_status, run.signal};
            o.kind = run.kind == RunOutcome::Kind::exited && run.exit_status == 0 ? MoveOutcome::Kind::replied
                                                                                : MoveOutcome::Kind::ended;
            break;
        case RunOutcome::Kind::timed_out: o.kind = MoveOutcome::Kind::timed_out; break;
        case RunOutcome::Kind::stdout_overflow: o.kind = MoveOutcome::Kind::stdout_overflow; break;
        case RunOutcome::Kind::spawn_failed:
            o.kind = MoveOutcome::Kind::could_not_start;
            o.start_error = run.spawn_error;
            break;
    }
    o.out_of_memory = run.out_of_memory;
    o.elapsed = run.elapsed;
    o.cpu = run.cpu;
    return o;
}

ForfeitRules MoveRules::of(bool first_move) const {
    ForfeitRules rules = first_move ? first : later;
    if (!bank) return rules;
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(bank->left);
    if (left < rules.wall_limit) {
        rules.wall_limit = left;
        rules.time_bank_s = bank->bank_s;
    }
    return rules;
}

std::optional<Forfeit> move_forfeit(const MoveOutcome& o, const ForfeitRules& r) {
    using Kind = MoveOutcome::Kind;
    const bool persistent = r.run == ForfeitRules::Run::persistent;
    // A process for the game, as a persistent bot's: its CPU time is counted per move.
    const bool per_game = persistent || r.run == ForfeitRules::Run::tlv;
    if (o.out_of_memory && o.kind != Kind::replied && r.group_memory != 0)
        return over_limit("memory limit of " + mib(r.group_memory) +
                              " (its processes, shared memory and files in memory, together)",
                          "the kernel killed one of its processes", "use less memory");
    // CPU-time mode: the tree's CPU time is the move's time; where it is not known (a warm move
    // without a control group), the wall clock is. A move the backstop ended is told by its CPU
    // time too when that was over the limit already (the cause, whatever the machine's load),
    // but for one its time bank ended, which says so below.
    const auto used = o.cpu ? *o.cpu : o.elapsed;
    const bool ended_over = o.kind == Kind::timed_out && o.cpu && r.time_bank_s == 0;
    if (r.cpu_time && used > r.time_limit && (o.kind == Kind::replied || ended_over)) {
        char ms[32];
        std::snprintf(ms, sizeof ms, "%.1f", std::chrono::duration<double, std::milli>(used).count());
        return Forfeit{ForfeitKind::timeout, std::string("the bot used ") + ms + " ms of " +
                                                 (o.cpu ? "CPU time" : "time (its CPU time was not known)") +
                                                 ", over its limit of " + within(r) + " per move"};
    }
    switch (o.kind) {
        case Kind::replied: {
            const auto limit = std::chrono::seconds(r.limits.cpu_seconds);
            if (!per_game || r.limits.cpu_seconds == 0 || !o.cpu || *o.cpu <= limit) return std::nullopt;
            char seconds[32];
            std::snprintf(seconds, sizeof seconds, "%.2f", std::chrono::duration<double>(*o.cpu).count());
            return over_limit("CPU time limit of " + std::to_string(limit.count()) + " s per move",
                              std::string("used ") + seconds + " s",
                              "the time went into the bot's own work and the processes it left running; "
                              "compute less per move");
        }
        case Kind::timed_out: {
            // Cut short by its bank, not by its own limit: however the bot works, it has no time left.
            if (r.time_bank_s != 0)
                return Forfeit{ForfeitKind::timeout, "no reply within the " + std::to_string(r.wall_limit.count()) +
                                                         " ms left of its time bank of " + std::to_string(r.time_bank_s) +
                                                         " s, which is now spent: the bot is not run again this game"};
            const std::string limit =
                (r.cpu_time ? std::to_string(r.wall_limit.count()) + " ms of wall-clock time (the backstop of a CPU-time "
                                                                      "limit of " + within(r) + ") per move: "
                            : within(r) + " per move: ");
            if (persistent && o.board_unread)
                return Forfeit{ForfeitKind::timeout, "no reply line within the limit of " + limit +
                                                         "the bot had not read its board yet: it was still starting, or "
                                                         "it reads no input (a slow start belongs before its first read; "
                                                         "--startup-limit allows more)"};
            if (r.run == ForfeitRules::Run::tlv)
                return Forfeit{ForfeitKind::timeout, "no whole M after its T within the limit of " + limit +
                                                         "the bot was still working, or its M sat in a buffer of its "
                                                         "own (flush the socket after each message)"};
            // A reply line left in a persistent bot's stdout buffer looks the same from here as slow work.
            if (persistent)
                return Forfeit{ForfeitKind::timeout, "no reply line within the limit of " + limit +
                                                         "the bot was still working, or its reply sat in its output "
                                                         "buffer (flush stdout after each reply line)"};
            return Forfeit{ForfeitKind::timeout,
                           "no reply within the limit of " + limit +
                               (r.run == ForfeitRules::Run::warm
                                    ? "the time went into the bot's own work (its interpreter was started before the move)"
                                    : "the time went into the bot's run, starting it and its own work")};
        }
        case Kind::stdout_overflow:
            return Forfeit{ForfeitKind::output_cap,
                           "the bot printed more than " + std::to_string(r.stdout_cap) +
                               (persistent ? " bytes without a newline (a reply is one line)"
                                           : " bytes on stdout (a reply is at most " + std::to_string(max_cells_per_move) +
                                                 " pairs)")};
        case Kind::ended:
            if (std::optional<Forfeit> limit = limit_forfeit(o, r)) return limit;
            return ended(o, r);
        case Kind::could_not_start:
            if (o.start_error.find(std::strerror(E2BIG)) != std::string::npos)
                return Forfeit{ForfeitKind::board_too_large, o.start_error};
            // In the sandbox a program the host has may not be there.
            if (r.tmp_bytes != 0 && o.start_error.find(std::strerror(ENOENT)) != std::string::npos)
                return Forfeit{ForfeitKind::could_not_start,
                               o.start_error + " inside the sandbox, which shows /usr, the bot's own files and the "
                                               "folders given with --interpreter, and nothing else of the host"};
            return Forfeit{ForfeitKind::could_not_start, o.start_error};
        case Kind::extra_output: return Forfeit{ForfeitKind::protocol, "wrote more than one line for the previous tick"};
    }
    return std::nullopt;
}

MoveReport move_report(MoveOutcome outcome, const ForfeitRules& rules, std::string_view out) {
    MoveReport report;
    report.startup = rules.startup;
    report.elapsed = outcome.elapsed;
    report.cpu = outcome.cpu;
    report.out = out.substr(0, kOutputPreview);
    if (std::optional<Forfeit> forfeit = move_forfeit(outcome, rules)) report.forfeit = std::move(forfeit);
    else static_cast<Move&>(report) = parse_reply(out);
    report.err = std::move(outcome.err);
    return report;
}

std::optional<std::string> stdin_hint(Protocol protocol, std::string_view err) {
    if (protocol != Protocol::argv) return std::nullopt;
    // What each language says when it parses the empty stdin an argv bot gets, or reads past its end.
    static constexpr std::array<std::string_view, 8> signs = {
        "Expecting value: line 1 column 1 (char 0)",  // Python's json.load(sys.stdin)
        "EOFError",                                   // Python's input()
        "sys.stdin",
        "STDIN",                                      // Ruby's STDIN.read, Perl's <STDIN>
        "$stdin",
        "unexpected end of input",                    // Ruby's JSON.parse("")
        "Unexpected end of JSON input",               // Node's JSON.parse("")
        "readFileSync(0",                             // Node reading stdin
    };
    if (std::none_of(signs.begin(), signs.end(), [&](std::string_view s) { return err.find(s) != err.npos; }))
        return std::nullopt;
    return std::string("it seems to read the board from stdin, which an argv bot gets empty: the board is its last "
                       "command-line argument (Python: sys.argv[1]); or give it a bot.json with \"protocol\": \"stdin\" "
                       "(docs/protocol.md)");
}

}  // namespace gol::runner
