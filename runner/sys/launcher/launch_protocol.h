/* What the runner (runner/sys/launcher.cpp) and a bot's launcher (launcher.c) say to each other
 * on the unix stream socket the launcher got as its one argument. C, for both sides.
 *
 * Runner to launcher: a request, struct gol_launch_request, sent in one sendmsg that carries
 * the move's descriptors (SCM_RIGHTS): stdout, stderr, then stdin when GOL_LAUNCH_STDIN, then a
 * descriptor to pass when GOL_LAUNCH_PASS_FD. `strings_bytes` of NUL-terminated strings follow
 * on the stream: the working directory, the program, argc arguments, envc environment entries.
 * With GOL_LAUNCH_WARM a third string follows the program: a warm interpreter's script
 * (warm_python.py, warm_ruby.rb). The launcher then keeps one `program SCRIPT` running between
 * moves and has it fork the move (argv[1] is the bot's file) instead of starting argv afresh; a
 * launcher that cannot reports FAILED with step "warm", and the runner runs the bot the plain way.
 *
 * With GOL_LAUNCH_PERSISTENT the process lives for the game (the persistent protocol): the
 * runner keeps its stdin, stdout and stderr and speaks to it a line at a time, and between moves
 * sends FREEZE, which stops every process of the namespace and is answered by FROZEN with their
 * CPU time since the process started, and THAW before the next line, which continues them.
 *
 * Launcher to runner: struct gol_launch_report, each written whole. READY once, when it is up;
 * then per move STARTED or FAILED, and after STARTED exactly one ENDED, sent once the move's
 * process has ended and every other process of the namespace has been killed and reaped.
 * GOL_LAUNCH_KILL during a move ends it early (timeout, output cap); one that arrives after the
 * move ended on its own is ignored, as are FREEZE and THAW then. End of file from the runner
 * ends the launcher and so the namespace. */
#ifndef GOL_RUNNER_LAUNCH_PROTOCOL_H
#define GOL_RUNNER_LAUNCH_PROTOCOL_H

#include <stdint.h>

enum {
    GOL_LAUNCH_RUN = 1,  /* start a process as the request says */
    GOL_LAUNCH_KILL = 2, /* end the running move now */
    GOL_LAUNCH_SPARE = 3, /* the launcher to its warm interpreter only: fork ahead for the next move */
    GOL_LAUNCH_FREEZE = 4, /* a persistent move: stop its processes, answer FROZEN */
    GOL_LAUNCH_THAW = 5    /* a persistent move: continue its processes */
};

enum {
    GOL_LAUNCH_STDIN = 1,   /* a stdin descriptor is attached; without it stdin is /dev/null */
    GOL_LAUNCH_PASS_FD = 2, /* a further descriptor is attached, to become number pass_as */
    GOL_LAUNCH_NPROC = 4,   /* set RLIMIT_NPROC: the launcher's uid is the bot's own */
    GOL_LAUNCH_WARM = 8,    /* fork the move from a warm interpreter (above) */
    GOL_LAUNCH_PERSISTENT = 16 /* the process lives for the game (above) */
};

struct gol_launch_request {
    uint32_t kind;
    uint32_t flags;
    int32_t pass_as;
    uint32_t argc;
    uint32_t envc;
    uint32_t strings_bytes;
    /* 0 leaves a limit unset; as ResourceLimits in runner/sys/process.hpp. */
    uint64_t address_space;
    uint64_t cpu_seconds;
    uint64_t file_size;
    uint64_t open_files;
    uint64_t processes;
};

/* The most a request's strings may take: a board is at most 128 KiB as one argument. */
#define GOL_LAUNCH_MAX_STRINGS (16u << 20)

enum {
    GOL_LAUNCH_READY = 1,
    GOL_LAUNCH_STARTED = 2, /* started_ns: when a warm move's process was handed its request */
    GOL_LAUNCH_FAILED = 3, /* value: errno; step: what failed ("execve", "chdir", ...) */
    GOL_LAUNCH_ENDED = 4,  /* value: the move's wait status; max_rss_kb: its peak, cpu_us: its user plus
                              system CPU time (wait4), -1 when not known (a warm move) */
    GOL_LAUNCH_FROZEN = 5  /* cpu_us: every process of a persistent move's namespace, since it started */
};

struct gol_launch_report {
    int32_t kind;
    int32_t value;
    int64_t max_rss_kb;
    int64_t started_ns; /* CLOCK_MONOTONIC; 0 when not known */
    int64_t cpu_us;
    char step[32];
};

#endif
