// One long-lived launcher per bot per game (issue 16): process 1 of the bot's PID namespace,
// inside bubblewrap or contained, which starts each move's process on request and reports its
// end (runner/sys/launcher/launcher.c; the protocol in launch_protocol.h). A move costs a clone
// and an exec in there instead of a new sandbox.
#pragma once

#include "runner/sys/process.hpp"
#include "runner/sys/unique_fd.hpp"

#include <filesystem>
#include <memory>
#include <optional>
#include <string>

namespace gol::runner {

// The descriptor number the launcher gets its control socket on.
inline constexpr int launcher_fd = 3;

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
    // each move (ResourceLimits::processes says why only then). Nothing starts until run().
    Launcher(SpawnSpec start, bool own_uid);
    ~Launcher();
    Launcher(const Launcher&) = delete;
    Launcher& operator=(const Launcher&) = delete;

    // Runs one move's process as run_process would: spec's argv (argv[0] without a slash is
    // looked up in spec.env's PATH, inside), env (required), cwd, stdin_data, pass_fd, limits,
    // timeout (counted from the request) and caps. Every other process of the namespace is
    // killed before it returns. A launcher that is not running is started first; one that dies
    // during the move ends it as killed by SIGKILL, and the next move starts a new one.
    RunOutcome run(const SpawnSpec& spec);

    // The move as run() does, but forked from the launcher's warm interpreter, which runs
    // `warm_script` (as seen by the launcher) with spec.argv[0] and is started at the first such
    // move: spec.argv[1] is the bot's file, and no pass_fd. Its time counts from the fork.
    // nullopt when the launcher has no warm interpreter to fork from (nothing of the move ran):
    // the caller runs it the plain way.
    std::optional<RunOutcome> run_warm(const SpawnSpec& spec, const std::string& warm_script);

    // The launcher's process on the host (bubblewrap's, in the sandbox), or -1 when none runs.
    int pid() const;

private:
    // Starts the launcher and waits for it to say it is ready; an empty string when it did.
    std::string start();
    void stop();
    // run() and run_warm(); nullopt only for a warm move that could not start.
    std::optional<RunOutcome> run_request(const SpawnSpec& spec, const std::string& warm_script);

    SpawnSpec start_;
    bool own_uid_;
    std::unique_ptr<BackgroundProcess> process_;
    UniqueFd control_;
};

}  // namespace gol::runner
