/* A warm interpreter's move (warm_python.py, warm_ruby.rb), both sides of its fork: in the move's
 * process, what the launcher's start_move does for a move before its exec; in the interpreter, the
 * wait for the move and its ENDED. Ruby calls each side through Fiddle; Python makes the whole move,
 * its fork and its end included, one call through ctypes (gol_warm_python_move). A forked
 * interpreter pays a copied page for each page it writes, and each line of Python or Ruby writes
 * several (issue 39). Loaded from the interpreter's own folder, the launcher's. */
#define _GNU_SOURCE
#include "launch_protocol.h"
#include "../../sys/child_setup.h"

#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include <assert.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

/* Says STARTED with this process's pid on `control`, before any of the bot's code runs (a move
 * may kill its interpreter at once). Then makes this process what start_move makes a move's
 * before its exec, but that it keeps the interpreter's signal dispositions (those a fresh start of
 * it has) and is dumpable again (as an exec'd process is). `request`: the move's, as it came;
 * `stdin_fd` -1: /dev/null. With `close_others`, every descriptor but the standard three is closed
 * (no exec closes them); without, the interpreter closes those it knows (ruby keeps pipes of its
 * own). NULL, or the step that failed with errno set. */
const char* gol_warm_move(int control, const struct gol_launch_request* request, int stdin_fd, int stdout_fd,
                          int stderr_fd, const char* cwd, int close_others) {
    /* Before the limits: RLIMIT_NOFILE may fall below a descriptor this process has. */
    const long open_max = sysconf(_SC_OPEN_MAX);
    const struct gol_warm_reply started = {GOL_LAUNCH_STARTED, (int32_t)getpid(), 0};
    if (write(control, &started, sizeof started) != (ssize_t)sizeof started) return "STARTED";
    if (prctl(PR_SET_DUMPABLE, 1, 0, 0, 0) != 0) return "prctl";
    /* Opened here rather than by the set-up, so that it is closed again whoever closes the rest. */
    const int null_fd = stdin_fd < 0 ? open("/dev/null", O_RDONLY | O_CLOEXEC) : -1;
    if (stdin_fd < 0 && null_fd < 0) return "open /dev/null";
    const struct gol_child_setup setup = {stdin_fd < 0 ? null_fd : stdin_fd,
                                          stdout_fd,
                                          stderr_fd,
                                          -1,
                                          -1,
                                          cwd,
                                          request->address_space,
                                          request->cpu_seconds,
                                          request->file_size,
                                          request->open_files,
                                          (request->flags & GOL_LAUNCH_NPROC) ? request->processes : 0};
    const char* failed = gol_set_up_child_keeping_signal_actions(&setup);
    /* Above the standard three, as the interpreter has them open. */
    if (null_fd > 2) close(null_fd);
    if (failed != NULL || !close_others) return failed;
    if (syscall(SYS_close_range, 3u, ~0u, 0u) != 0) {
        /* A kernel before 5.9. */
        for (long fd = 3; fd < open_max; ++fd) close((int)fd);
    }
    return NULL;
}

/* In the interpreter, once it has forked `move`: closes its copies of the move's descriptors (a
 * request's, -1 where none), so that the move's output ends with the move, then waits for the move
 * and says ENDED on `control` with its wait status and CPU time. In C for the pages the
 * interpreter would write while its move shares them (above). 0, or -1 with errno set. */
static_assert(GOL_LAUNCH_MAX_FDS == 4, "gol_warm_ended takes a request's descriptors one by one");
int gol_warm_ended(int control, int move, int fd0, int fd1, int fd2, int fd3) {
    const int fds[GOL_LAUNCH_MAX_FDS] = {fd0, fd1, fd2, fd3};
    for (size_t i = 0; i < sizeof fds / sizeof fds[0]; ++i)
        if (fds[i] >= 0) close(fds[i]);
    int status;
    struct rusage usage;
    pid_t got;
    while ((got = wait4(move, &status, 0, &usage)) < 0 && errno == EINTR) {
    }
    if (got < 0) return -1;
    const int64_t cpu_us = ((int64_t)usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1000000 +
                           usage.ru_utime.tv_usec + usage.ru_stime.tv_usec;
    const struct gol_warm_reply ended = {GOL_LAUNCH_ENDED, status, cpu_us};
    return write(control, &ended, sizeof ended) == (ssize_t)sizeof ended ? 0 : -1;
}

/* Python's move in one call, so that neither side runs a line of Python while the other shares its
 * pages: os.fork's own steps (`before`, `after_parent`, `after_child`: PyOS_BeforeFork and the
 * rest, from ctypes.pythonapi, called with the GIL held as a PyDLL call holds it), then in the move
 * gol_warm_move, and in the interpreter gol_warm_ended before its after-fork step. `fd0`..`fd3`:
 * the request's descriptors as they came (launch_protocol.h: stdout, stderr, then stdin when it
 * has one), -1 where none.
 *
 * The move, set up, runs `move_main` (a Python callable that runs the bot and returns its exit
 * status) through `call_object` (PyObject_CallObject, the status read with `as_long`,
 * PyLong_AsLong) rather than return through ctypes, and ends here: each line of Python, and
 * ctypes' return, writes to pages the move would copy. With status 0 it has nothing more to say:
 * its output is closed and the launcher (process 1) told (GOL_LAUNCH_DONE), so that the move ends
 * now rather than once the kernel has unmapped this process (a forked python3's largest cost) and
 * the interpreter has said so. Any other status is reported by the process's end itself. A move
 * that cannot be set up says why on its stderr and exits 127, as the launcher's start_move does.
 *
 * The interpreter returns the move's pid once it has said ENDED, and -1 with errno set when it
 * could not fork; it exits 127 when it could not say ENDED. */
int gol_warm_python_move(void (*before)(void), void (*after_parent)(void), void (*after_child)(void),
                         void* (*call_object)(void*, void*), long (*as_long)(void*), void* move_main, int control,
                         const struct gol_launch_request* request, const char* cwd, int fd0, int fd1, int fd2,
                         int fd3) {
    before();
    const pid_t move = fork();
    if (move == 0) {
        after_child();
        const int stdin_fd = (request->flags & GOL_LAUNCH_STDIN) ? fd2 : -1;
        const char* failed = gol_warm_move(control, request, stdin_fd, fd0, fd1, cwd, 1);
        if (failed != NULL) {
            dprintf(2, "could not start the move in the warm python3: %s: %s\n", failed, strerror(errno));
            _exit(127);
        }
        void* const status_object = call_object(move_main, NULL);
        const long status = status_object != NULL ? as_long(status_object) : 127;
        if (status == 0) {
            close(1);
            close(2);
            kill(1, GOL_LAUNCH_DONE);
        }
        _exit((int)status);
    }
    if (move < 0) {
        const int fork_errno = errno;
        after_parent();
        errno = fork_errno;
        return -1;
    }
    if (gol_warm_ended(control, move, fd0, fd1, fd2, fd3) != 0) _exit(127);
    after_parent();
    return move;
}
