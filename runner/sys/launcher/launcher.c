/* A bot's launcher: process 1 of the bot's PID namespace for a whole game, starting each move's
 * process when the runner asks (runner/sys/launcher.cpp, launch_protocol.h). In the sandbox,
 * bubblewrap starts it with --as-pid-1; without the sandbox it makes the namespace itself
 * (contain/pid_namespace.h) and stays its process 1's parent.
 * Usage, by the runner only: gol-launcher FD (a unix stream socket to the runner).
 *
 * The runner is trusted, the bot is not, and the bot runs in this namespace, as this uid:
 * - The socket is close-on-exec and closed in the move's process before exec, and this process
 *   is not dumpable, so a process without CAP_SYS_PTRACE cannot open /proc/1/fd or ptrace it.
 * - Process 1 of a namespace gets no signal from inside that it has no handler for, and this
 *   one has none (SIGCHLD is blocked and read from a signalfd): kill(1, ...) and kill(-1, ...)
 *   from a bot do not reach it.
 * - When a move's process ends, or the runner says to end it, kill(-1, SIGKILL) from process 1
 *   reaches every other process of the namespace; all are reaped before the end is reported,
 *   so nothing of a move lives into the next.
 * - Its end of file from the runner (the runner died or is done) ends it, and the kernel then
 *   kills whatever is left in the namespace.
 *
 * Statically linked (with musl where there is one), like the namespace init. */
#define _GNU_SOURCE
#include "launch_protocol.h"
#include "../contain/pid_namespace.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef SYS_close_range
#define SYS_close_range 436
#endif

static int control = -1;

static void report(int32_t kind, int32_t value, int64_t max_rss_kb, const char* step) {
    struct gol_launch_report r;
    memset(&r, 0, sizeof r);
    r.kind = kind;
    r.value = value;
    r.max_rss_kb = max_rss_kb;
    if (step) strncpy(r.step, step, sizeof r.step - 1);
    /* Nothing to do if the runner is gone: the next read sees its end of file. */
    while (send(control, &r, sizeof r, MSG_NOSIGNAL) < 0 && errno == EINTR) {
    }
}

/* Every other process of the namespace killed and reaped. Killed again before each wait: a
 * process forked while the previous kill went round would otherwise live on, and be waited for
 * forever. Every process here is ours to reap (orphans come to process 1), so ECHILD means none
 * is left. */
static void end_all_others(void) {
    for (;;) {
        kill(-1, SIGKILL);
        if (waitpid(-1, NULL, 0) < 0 && errno == ECHILD) return;
    }
}

/* Exactly `size` bytes; 0, or -1 at end of file or on an error. */
static int read_exact(void* buffer, size_t size) {
    char* at = buffer;
    while (size > 0) {
        ssize_t got = read(control, at, size);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return -1;
        at += got;
        size -= (size_t)got;
    }
    return 0;
}

/* One request's header and the descriptors it carries (up to 4; -1 where none). At end of
 * file the runner is gone, and so is everything here. */
static void read_request(struct gol_launch_request* request, int fds[4]) {
    union { /* for cmsghdr's alignment */
        char bytes[CMSG_SPACE(4 * sizeof(int))];
        struct cmsghdr align;
    } control_buffer;
    struct iovec iov = {request, sizeof *request};
    struct msghdr msg;
    memset(&msg, 0, sizeof msg);
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control_buffer.bytes;
    msg.msg_controllen = sizeof control_buffer.bytes;
    for (int i = 0; i < 4; ++i) fds[i] = -1;
    ssize_t got;
    while ((got = recvmsg(control, &msg, MSG_CMSG_CLOEXEC)) < 0 && errno == EINTR) {
    }
    if (got <= 0) {
        end_all_others();
        _exit(0);
    }
    for (struct cmsghdr* c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
        if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
        size_t n = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        memcpy(fds, CMSG_DATA(c), (n > 4 ? 4 : n) * sizeof(int));
    }
    if ((size_t)got < sizeof *request && read_exact((char*)request + got, sizeof *request - (size_t)got) != 0) {
        end_all_others();
        _exit(0);
    }
}

/* What the move's process needs between clone() and exec. It shares our memory until it execs,
 * so it reports a failure here. */
struct move {
    const struct gol_launch_request* request;
    const char* cwd;
    const char* program;
    char** argv;
    char** envp;
    const char* path; /* the request's PATH, for a program named without a slash */
    int stdin_fd, stdout_fd, stderr_fd, pass_fd;
    int error;
    const char* step;
};

static int exec_in_path(struct move* m) {
    if (strchr(m->program, '/')) return execve(m->program, m->argv, m->envp);
    char candidate[4096];
    int error = ENOENT;
    for (const char* dir = m->path; dir;) {
        const char* colon = strchr(dir, ':');
        size_t length = colon ? (size_t)(colon - dir) : strlen(dir);
        if (length + strlen(m->program) + 2 <= sizeof candidate) {
            memcpy(candidate, dir, length);
            candidate[length] = '/';
            strcpy(candidate + length + 1, m->program);
            execve(candidate, m->argv, m->envp);
            if (errno != ENOENT) error = errno;
        }
        dir = colon ? colon + 1 : NULL;
    }
    errno = error;
    return -1;
}

/* The move's process: only async-signal-safe calls until execve. */
static int start_move(void* arg) {
    struct move* m = arg;
#define FAIL(what)           \
    do {                     \
        m->error = errno;    \
        m->step = what;      \
        _exit(127);          \
    } while (0)
    /* Close-on-exec already; closed first, so that no descriptor of the move's lands on its
     * number before, and not even a failed exec leaves it open. */
    close(control);
    /* A session and process group of its own, as run_process gives an unsandboxed bot. */
    if (setsid() < 0) FAIL("setsid");
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    int in = m->stdin_fd;
    if (in < 0 && (in = open("/dev/null", O_RDONLY | O_CLOEXEC)) < 0) FAIL("open /dev/null");
    if (dup2(in, 0) < 0 || dup2(m->stdout_fd, 1) < 0 || dup2(m->stderr_fd, 2) < 0) FAIL("dup2");
    if (m->pass_fd >= 0) {
        if (m->pass_fd == m->request->pass_as ? fcntl(m->pass_fd, F_SETFD, 0) != 0
                                             : dup2(m->pass_fd, m->request->pass_as) < 0)
            FAIL("passing a descriptor");
    }
    if (m->cwd[0] && chdir(m->cwd) != 0) FAIL("chdir");
    const struct gol_launch_request* r = m->request;
    struct {
        int resource;
        uint64_t value;
        const char* step;
    } limits[] = {{RLIMIT_AS, r->address_space, "setrlimit RLIMIT_AS"},
                  {RLIMIT_CPU, r->cpu_seconds, "setrlimit RLIMIT_CPU"},
                  {RLIMIT_FSIZE, r->file_size, "setrlimit RLIMIT_FSIZE"},
                  {RLIMIT_NOFILE, r->open_files, "setrlimit RLIMIT_NOFILE"},
                  {RLIMIT_NPROC, (r->flags & GOL_LAUNCH_NPROC) ? r->processes : 0, "setrlimit RLIMIT_NPROC"}};
    for (size_t i = 0; i < sizeof limits / sizeof limits[0]; ++i) {
        if (limits[i].value == 0) continue;
        struct rlimit l = {(rlim_t)limits[i].value, (rlim_t)limits[i].value};
        /* CPU: the soft limit sends SIGXCPU, which names the cause; the hard one a second later kills. */
        if (limits[i].resource == RLIMIT_CPU) l.rlim_max = l.rlim_cur + 1;
        if (setrlimit(limits[i].resource, &l) != 0) FAIL(limits[i].step);
    }
    struct rlimit no_core = {0, 0};
    setrlimit(RLIMIT_CORE, &no_core);
    exec_in_path(m);
    FAIL("execve");
#undef FAIL
}

/* The string at *at, and *at moved past it; the empty string at `end` (which holds a NUL) once
 * the runner's strings run out. */
static char* next_string(char** at, char* end) {
    char* s = *at;
    if (s < end) *at += strlen(s) + 1;
    return s < end ? s : end;
}

/* Runs one move: starts it, reports, waits for its end or the runner's KILL, ends the rest of
 * the namespace, reports the end. */
static void run_move(const struct gol_launch_request* request, int fds[4], int children) {
    char* strings = NULL;
    char** argv = NULL;
    char** envp = NULL;
    const uint32_t bytes = request->strings_bytes;
    int ok = bytes <= GOL_LAUNCH_MAX_STRINGS && request->argc >= 1 && request->argc < (1u << 20) &&
             request->envc < (1u << 20) && (strings = malloc(bytes + 1)) != NULL;
    if (!ok || read_exact(strings, bytes) != 0) {
        /* Unreadable: the stream can no longer be trusted to be in step. */
        end_all_others();
        _exit(127);
    }
    strings[bytes] = '\0';
    argv = calloc(request->argc + 1, sizeof *argv);
    envp = calloc(request->envc + 1, sizeof *envp);
    if (!argv || !envp) _exit(127);
    char* at = strings;
    char* const end = strings + bytes;
    const char* cwd = next_string(&at, end);
    const char* program = next_string(&at, end);
    for (uint32_t i = 0; i < request->argc; ++i) argv[i] = next_string(&at, end);
    const char* path = "/usr/bin:/bin";
    for (uint32_t i = 0; i < request->envc; ++i) {
        envp[i] = next_string(&at, end);
        if (strncmp(envp[i], "PATH=", 5) == 0) path = envp[i] + 5;
    }
    const int has_stdin = (request->flags & GOL_LAUNCH_STDIN) != 0;
    struct move m = {request,
                     cwd,
                     program,
                     argv,
                     envp,
                     path,
                     has_stdin ? fds[2] : -1,
                     fds[0],
                     fds[1],
                     (request->flags & GOL_LAUNCH_PASS_FD) ? fds[has_stdin ? 3 : 2] : -1,
                     0,
                     ""};
    static char stack[64 * 1024];
    const pid_t child = clone(start_move, stack + sizeof stack, CLONE_VM | CLONE_VFORK | SIGCHLD, &m);
    for (int i = 0; i < 4; ++i)
        if (fds[i] >= 0) close(fds[i]);
    free(argv);
    free(envp);
    free(strings);
    if (child < 0 || m.error != 0) {
        const int error = child < 0 ? errno : m.error;
        end_all_others();
        report(GOL_LAUNCH_FAILED, error, 0, child < 0 ? "clone" : m.step);
        return;
    }
    report(GOL_LAUNCH_STARTED, 0, 0, NULL);

    /* Orphans of the namespace are ours: reap them all until the move's process ends. */
    int status = 0;
    struct rusage usage;
    memset(&usage, 0, sizeof usage);
    for (int ended = 0; !ended;) {
        struct pollfd waits[2] = {{control, POLLIN, 0}, {children, POLLIN, 0}};
        if (poll(waits, 2, -1) < 0) continue;
        if (waits[1].revents) {
            struct signalfd_siginfo info;
            while (read(children, &info, sizeof info) > 0) {
            }
            int s;
            struct rusage u;
            pid_t pid;
            while ((pid = wait4(-1, &s, WNOHANG, &u)) > 0 || (pid < 0 && errno == EINTR)) {
                if (pid == child) {
                    status = s;
                    usage = u;
                    ended = 1;
                    break;
                }
            }
        }
        if (!ended && waits[0].revents) {
            struct gol_launch_request next;
            int more[4];
            read_request(&next, more);
            for (int i = 0; i < 4; ++i)
                if (more[i] >= 0) close(more[i]);
            /* Only KILL is the runner's to send during a move (it sends one request at a time). */
            kill(-1, SIGKILL);
        }
    }
    end_all_others();
    report(GOL_LAUNCH_ENDED, status, usage.ru_maxrss, NULL);
}

int main(int argc, char** argv) {
    if (argc != 2) return 127;
    control = atoi(argv[1]);
    if (fcntl(control, F_SETFD, FD_CLOEXEC) != 0) return 127;
    /* Whatever else the runner's own parent left open and bubblewrap passed on is no bot's. */
    if ((control > 3 && syscall(SYS_close_range, 3, control - 1, 0) != 0) ||
        syscall(SYS_close_range, control + 1, ~0u, 0) != 0)
        return 127;
    if (getpid() != 1 && gol_enter_pid_namespace(control) != 0) return 127;
    /* kill(-1) below must mean this namespace's processes; anywhere else, refuse to run. */
    if (getpid() != 1) return 127;
    /* Not dumpable: no /proc/1/fd, /proc/1/mem or ptrace for a bot of the same uid. Only now:
     * a process that is not dumpable cannot write its own uid_map while making the namespace. */
    if (prctl(PR_SET_DUMPABLE, 0) != 0) return 127;
    sigset_t chld;
    sigemptyset(&chld);
    sigaddset(&chld, SIGCHLD);
    sigprocmask(SIG_BLOCK, &chld, NULL);
    const int children = signalfd(-1, &chld, SFD_CLOEXEC | SFD_NONBLOCK);
    if (children < 0) return 127;
    report(GOL_LAUNCH_READY, 0, 0, NULL);
    for (;;) {
        struct gol_launch_request request;
        int fds[4];
        read_request(&request, fds);
        if (request.kind == GOL_LAUNCH_RUN) {
            run_move(&request, fds, children);
        } else {
            /* A KILL that crossed the move's own end: nothing is running. */
            for (int i = 0; i < 4; ++i)
                if (fds[i] >= 0) close(fds[i]);
        }
    }
}
