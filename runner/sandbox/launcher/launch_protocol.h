/* What the runner (runner/sandbox/launcher.cpp) and a bot's launcher (launcher.c) say to each other
 * on the unix stream socket the launcher got as its one argument. C, for both sides.
 *
 * Runner to launcher: a request, struct gol_launch_request, sent in one sendmsg that carries
 * the move's descriptors (SCM_RIGHTS): stdout, stderr, then stdin when GOL_LAUNCH_STDIN, then a
 * descriptor to pass when GOL_LAUNCH_PASS_FD. `strings_bytes` of NUL-terminated strings follow
 * on the stream: the working directory, argc arguments (the first the program's path: the runner
 * resolved it, no PATH is searched), envc environment entries. With GOL_LAUNCH_WARM a warm
 * interpreter's script (warm_python.py, warm_ruby.rb) comes after the working directory. The
 * launcher then keeps one `argv[0] OPTION SCRIPT` running between moves (OPTION isolates it from
 * the bot's writable folders: launcher.c, warm_option) and has it fork the move (argv[1] is the
 * bot's file) instead of starting argv afresh; a launcher that cannot reports FAILED with step
 * "warm", and the runner runs the bot the plain way.
 *
 * With GOL_LAUNCH_PERSISTENT the process lives for the game (the persistent protocol): the
 * runner keeps its stdin, stdout and stderr and speaks to it a line at a time. Between moves it
 * holds the bot by its control group's CPU quota; where there is none, it sends FREEZE, which
 * stops every process of the namespace and is answered by FROZEN with their CPU time since the
 * process started, and THAW before the next line, which continues them.
 *
 * A tlv bot (docs/arena.md) connects to the runner over TCP, and in the sandbox has no network
 * but its namespace's loopback. So before its process starts the runner sends LISTEN: the
 * launcher, in the bot's network namespace, makes a TCP socket listening on 127.0.0.1 (an
 * ephemeral port, backlog 1) and sends it back with LISTENING (value: the port, the socket
 * attached), or FAILED (step "listen"). A socket keeps the namespace it was made in: the runner
 * accepts the bot's connection on it from outside, and closes it then.
 *
 * Launcher to runner: struct gol_launch_report, each written whole. READY once, when it is up;
 * then per move STARTED or FAILED, and after STARTED exactly one ENDED, sent once the move's
 * process has ended and every other process of the namespace has been killed and reaped (a warm
 * move's too: its interpreter's DONE or end reaches the launcher, not the runner).
 * LISTEN between moves is answered by LISTENING or FAILED.
 * GOL_LAUNCH_KILL during a move ends it early (timeout, output cap); one that arrives after the
 * move ended on its own is ignored, as are FREEZE and THAW then. End of file from the runner
 * ends the launcher and so the namespace. */
#ifndef GOL_RUNNER_LAUNCH_PROTOCOL_H
#define GOL_RUNNER_LAUNCH_PROTOCOL_H

#include <assert.h>
#include <stdint.h>

enum {
    GOL_LAUNCH_RUN = 1,  /* start a process as the request says */
    GOL_LAUNCH_KILL = 2, /* end the running move now */
    GOL_LAUNCH_FREEZE = 4, /* a persistent move: stop its processes, answer FROZEN */
    GOL_LAUNCH_THAW = 5,   /* a persistent move: continue its processes */
    GOL_LAUNCH_LISTEN = 6  /* between moves: a listening TCP socket for a tlv bot, answered LISTENING */
};

enum {
    GOL_LAUNCH_STDIN = 1,   /* a stdin descriptor is attached; without it stdin is /dev/null */
    GOL_LAUNCH_PASS_FD = 2, /* a further descriptor is attached, to become number pass_as */
    GOL_LAUNCH_NPROC = 4,   /* set RLIMIT_NPROC: the launcher's uid is the bot's own */
    GOL_LAUNCH_WARM = 8,    /* fork the move from a warm interpreter (above) */
    GOL_LAUNCH_PERSISTENT = 16 /* the process lives for the game (above) */
};

/* The request's fields in order: C type, name, and the field's code in Python's struct and in
 * Ruby's pack. The struct below and the warm interpreters' constants (protocol_constants.c
 * writes them into the scripts at build time) both come from this one list. The limits are
 * ResourceLimits' (runner/sys/process.hpp), 0 leaving one unset. */
#define GOL_LAUNCH_REQUEST_FIELDS(F)          \
    F(uint32_t, kind, "I", "L")               \
    F(uint32_t, flags, "I", "L")              \
    F(int32_t, pass_as, "i", "l")             \
    F(uint32_t, argc, "I", "L")               \
    F(uint32_t, envc, "I", "L")               \
    F(uint32_t, strings_bytes, "I", "L")      \
    F(uint64_t, address_space, "Q", "Q")      \
    F(uint64_t, cpu_seconds, "Q", "Q")        \
    F(uint64_t, file_size, "Q", "Q")          \
    F(uint64_t, open_files, "Q", "Q")         \
    F(uint64_t, processes, "Q", "Q")

#define GOL_LAUNCH_FIELD(type, name, python, ruby) type name;
struct gol_launch_request {
    GOL_LAUNCH_REQUEST_FIELDS(GOL_LAUNCH_FIELD)
};

/* What a warm interpreter says to the launcher (warm_python.py, warm_ruby.rb): READY, then per
 * move STARTED (value: the move's pid; no time: the move's clock is the launcher's) or FAILED
 * (value: errno), and after STARTED, ENDED (value: the move's wait status, as the move is the
 * interpreter's child; cpu_us: its user plus system CPU time, -1 when not known). */
#define GOL_WARM_REPLY_FIELDS(F)  \
    F(int32_t, kind, "i", "l")    \
    F(int32_t, value, "i", "l")   \
    F(int64_t, cpu_us, "q", "q")

struct gol_warm_reply {
    GOL_WARM_REPLY_FIELDS(GOL_LAUNCH_FIELD)
};
#undef GOL_LAUNCH_FIELD

/* A warm Python move's signal to the launcher, from its own process only: it has ended with status
 * 0 and closed its output (warm_move.c, launcher.c). Its users include <signal.h>. */
#define GOL_LAUNCH_DONE SIGUSR1

/* The interpreters read these layouts with no padding: the sizes are the fields' own. */
static_assert(sizeof(struct gol_launch_request) == 6 * 4 + 5 * 8, "gol_launch_request has padding");
static_assert(sizeof(struct gol_warm_reply) == 2 * 4 + 8, "gol_warm_reply has padding");

/* The descriptor a launcher, and a warm interpreter, get their socket on. */
#define GOL_LAUNCH_CONTROL_FD 3
/* The most descriptors one request carries: stdout, stderr, stdin, one passed. */
#define GOL_LAUNCH_MAX_FDS 4

/* The most a request's strings may take: a board is at most 128 KiB as one argument. */
#define GOL_LAUNCH_MAX_STRINGS (16u << 20)

enum {
    GOL_LAUNCH_READY = 1,
    GOL_LAUNCH_STARTED = 2, /* started_ns: when the launcher sent a warm move's request to its interpreter */
    GOL_LAUNCH_FAILED = 3, /* value: errno; step: what failed ("execve", "chdir", ...) */
    GOL_LAUNCH_ENDED = 4,  /* value: the move's wait status; cpu_us: the user plus system CPU time of the
                              move's process and of every child it left (all reaped by then), -1 when
                              not known (a warm move's interpreter died) */
    GOL_LAUNCH_FROZEN = 5, /* cpu_us: every process of a persistent move's namespace, since it started */
    GOL_LAUNCH_LISTENING = 6 /* value: the port; the socket itself is attached (SCM_RIGHTS) */
};

struct gol_launch_report {
    int32_t kind;
    int32_t value;
    int64_t started_ns; /* CLOCK_MONOTONIC; 0 when not known */
    int64_t cpu_us;
    char step[32];
};

static_assert(sizeof(struct gol_launch_report) == 2 * 4 + 2 * 8 + 32, "gol_launch_report has padding");

#endif
