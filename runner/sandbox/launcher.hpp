// One long-lived launcher per bot per game (issue 16): process 1 of the bot's PID namespace,
// inside bubblewrap or contained, which starts each move's process on request and reports its
// end (runner/sandbox/launcher/launcher.c; the protocol in launch_protocol.h). A move costs a clone
// and an exec in there instead of a new sandbox.
#pragma once

#include "runner/sandbox/control_group.hpp"
#include "runner/sandbox/launcher/launch_protocol.h"
#include "runner/sys/pipe_pump.hpp"
#include "runner/sys/process.hpp"
#include "runner/sandbox/sandbox.hpp"
#include "runner/sys/unique_fd.hpp"

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace gol::runner {

// The descriptor number the launcher gets its control socket on.
inline constexpr int launcher_fd = GOL_LAUNCH_CONTROL_FD;

// A failure of the runner's own machinery (its launcher, bubblewrap, a control group, a helper
// file), never of the bot: it ends the duel, check or league game, which stores nothing of it,
// rather than becoming a forfeit. A bot's own program that cannot start (missing, not
// executable) fails at its exec, and that stays the bot's forfeit.
struct RunnerFault : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// The runner's gol-launcher (helper_programs.hpp), when it is there.
std::optional<std::filesystem::path> launcher_program();
// The runner's helper `name`, when it is there to read: a warm interpreter's
// script (launcher/warm_python.py, warm_ruby.rb, installed as gol-warm-python.py, gol-warm-ruby.rb).
std::optional<std::filesystem::path> warm_script(const std::string& name);

class Launcher {
public:
    // `start` runs the launcher: its argv ends with the launcher's path and launcher_fd's number
    // (inside bubblewrap with --as-pid-1, or alone: it makes its PID namespace then); pass_fd is
    // set here. `own_uid`: the launcher's uid is the bot's alone, so RLIMIT_NPROC is set in
    // each move (ResourceLimits::processes says why only then). Nothing starts until a request.
    Launcher(SpawnSpec start, bool own_uid);
    // The launcher of one bot's game or one build: inside `sandbox` as `who` (bubblewrap with
    // --as-pid-1, showing `view` and the launcher's own folder, where the warm interpreters are
    // too), or without one in a PID namespace it makes itself, in view.workdir with
    // view.environment. Throws when the runner has no launcher program: nothing of a bot runs
    // without one.
    // With `group` and a sandbox whose host allows control groups, everything it starts lives
    // in a control group of its own held to those limits: a move's CPU time and a death for
    // memory are read from there, and a persistent bot is held by it between its moves.
    static std::unique_ptr<Launcher> make(Sandbox* sandbox, SandboxView view, const std::optional<Identity>& who,
                                          ProcessRegistry* registry, const std::optional<GroupLimits>& group = std::nullopt);
    ~Launcher();
    Launcher(const Launcher&) = delete;
    Launcher& operator=(const Launcher&) = delete;

    // Runs one move's process as run_process would: spec's argv (argv[0] a path: no PATH is
    // searched), env (required), cwd, stdin_data, pass_fd, limits,
    // timeout (counted from the request) and caps. Every other process of the namespace is
    // killed before it returns. A launcher that is not running is started first; one that dies
    // during the move ends it as killed by SIGKILL, and the next move starts a new one.
    // With `warm_script` (warm_script(), in the launcher's own folder) the move is forked from
    // the launcher's warm interpreter, spec.argv[0] running that script, started at the first
    // such move: spec.argv[1] is the bot's file, and no pass_fd; its time counts from the fork.
    // nullopt only then, when there is no warm interpreter to fork from (nothing of the move
    // ran): the caller runs it the plain way.
    std::optional<RunOutcome> run(const CommandSpec& spec, const std::string& warm_script = "");

    // A process for the game (a persistent or a tlv bot), started as run() starts a move, with a
    // stdin pipe (spec.timeout and stdin_data are not used): our ends of its pipes, non-blocking
    // and under spec's caps, or why it did not start. Its processes run until hold(); its
    // conversation speaks to it over the pipes, and control() turns readable at its end.
    struct Started {
        pipes::Streams streams;
        std::string error;
    };
    Started start(const CommandSpec& spec);
    // Continues the process's tree for its turn (false once its launcher is gone).
    bool release();
    // Holds the tree after its turn (ControlGroup::hold; without a group, stopped by the
    // launcher): the CPU time of its namespace and whether the kernel killed one of its
    // processes for memory, since release(); its wait status when it had ended, or could not be
    // held and was ended.
    struct Held {
        std::chrono::microseconds cpu{0};
        bool out_of_memory = false;
        std::optional<int> ended;
    };
    Held hold();
    // Ends the process, after `grace` for it to end by itself, and says how it ended (also one
    // that had ended: control() turned readable): exited or signaled, with deaths for memory
    // since the last release() or hold(). Every process of its namespace is gone then.
    RunOutcome kill(std::chrono::milliseconds grace = std::chrono::milliseconds(0));
    int control() const { return control_.get(); }

    // A tlv bot's address (launch_protocol.h, LISTEN): a TCP socket listening on 127.0.0.1 in
    // the launcher's network namespace (the sandbox's own, else the host's), and its port. The
    // launcher is started first when none runs. Throws RunnerFault when there is none.
    struct Listener {
        UniqueFd fd;
        int port = 0;
    };
    Listener listen();

    // The launcher's process on the host (bubblewrap's, in the sandbox), or -1 when none runs.
    int pid() const;

private:
    // Starts the launcher and waits for it to say it is ready; throws RunnerFault when it is not.
    void launch();
    void stop();
    using Clock = std::chrono::steady_clock;
    // What a request carries: its header, its strings and its descriptors, and our ends of the
    // move's pipes (stdin's only with spec.stdin_data, or for a persistent process).
    struct Request;
    Request make_request(const CommandSpec& spec, const std::string& warm_script, bool persistent) const;
    // Sends the request (deliver); the launcher's STARTED or FAILED report (a failure at any
    // step but the bot's exec or a warm fork is a RunnerFault), or a RunOutcome for a launcher
    // that died with the request (signaled, SIGKILL).
    struct Sent;
    Sent send(Request& request, const std::string& name);
    // Sends a request without descriptors or strings (KILL, FREEZE, THAW); false once the
    // launcher is gone.
    bool send_plain(std::uint32_t kind);
    // Tells the launcher to end the move that runs and waits for its end, which gives the wait
    // status (and the CPU time it reports); a launcher that does not report it is stopped.
    int kill_move(std::optional<std::chrono::microseconds>& cpu);
    // The move's end as the launcher reports it by `by`, with the CPU time it reports; a
    // launcher that does not (it died) is stopped, and the move reads as killed, as its
    // namespace was.
    int read_end(Clock::time_point by, std::optional<std::chrono::microseconds>& cpu);

    // The group's CPU time and deaths for memory so far; `counted` sets what a move took since.
    struct GroupCount {
        std::optional<std::chrono::microseconds> cpu;
        std::uint64_t oom_kills = 0;
    };
    GroupCount count() const;
    void counted(const GroupCount& before, std::optional<std::chrono::microseconds>& cpu, bool& out_of_memory) const;
    // Sends `request` with `fds`, starting the launcher first when none runs, and replacing once
    // one that died since; when it was sent, with the group's count just before (`before`).
    // Throws RunnerFault when no launcher takes it.
    Clock::time_point deliver(const gol_launch_request& request, const std::vector<int>& fds,
                              GroupCount* before = nullptr);
    // Between release() and hold(): the group's count at the last of them; and whether the
    // launcher froze the tree, with the CPU time FROZEN reported then.
    GroupCount turn_before_;
    bool frozen_ = false;
    std::chrono::microseconds cpu_when_frozen_{0};
    SpawnSpec start_;
    bool own_uid_;
    std::filesystem::path helpers_;  // its own folder, as it sees it: where the warm interpreters are
    // The folders its filesystems are mounted on, and its group: they outlive its process.
    std::vector<TempDir> mount_points_;
    std::unique_ptr<ControlGroup> group_;
    std::unique_ptr<BackgroundProcess> process_;
    UniqueFd control_;
};

}  // namespace gol::runner
