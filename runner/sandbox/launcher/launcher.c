/* A bot's launcher: process 1 of the bot's PID namespace for a whole game (or a build), starting
 * each move's process when the runner asks, or a persistent bot's once for the game and stopping
 * its namespace between moves (runner/sandbox/launcher.cpp, launch_protocol.h). In the sandbox,
 * bubblewrap starts it with --as-pid-1; without the sandbox it makes the namespace itself
 * (pid_namespace.h) and stays its process 1's parent.
 * Usage, by the runner only: gol-launcher FD (a unix stream socket to the runner).
 *
 * The runner is trusted, the bot is not, and the bot runs in this namespace, as this uid:
 * - The socket is close-on-exec and closed in the move's process before exec, and this process
 *   is not dumpable, so a process without CAP_SYS_PTRACE cannot open /proc/1/fd or ptrace it.
 * - Process 1 of a namespace gets no signal from inside that it has no handler for, and this
 *   one has none: kill(1, ...) and kill(-1, ...) from a bot do not reach it. SIGCHLD and
 *   SIGUSR1 are blocked and read from a signalfd, so they are queued: a SIGCHLD only makes it
 *   reap, and a SIGUSR1 counts only from a warm move's own process (DONE, below).
 * - When a move's process ends, or the runner says to end it, kill(-1, SIGKILL) from process 1
 *   reaches every other process of the namespace; all are reaped before the end is reported,
 *   so nothing of a move lives into the next.
 * - Its end of file from the runner (the runner died or is done) ends it, and the kernel then
 *   kills whatever is left in the namespace.
 *
 * - A warm interpreter (GOL_LAUNCH_WARM, warm_python.py) lives between moves: then the end of a
 *   move kills every process the namespace's /proc lists but this one and the interpreter, so
 *   it needs a /proc of its own namespace (bubblewrap mounts one; contained, this process
 *   mounts one in a mount namespace of its own), and continues the interpreter (a move may
 *   have stopped it). Moves are its orphans, reaped here like any. A move that ends with status
 *   0 sends DONE (SIGUSR1) here as it exits, and the move is over then: its end is reported
 *   without waiting for the kernel to unmap it, nor for the interpreter to say so.
 *
 * Statically linked (with musl where there is one): nothing of a bot's LD_PRELOAD reaches it. */
#define _GNU_SOURCE
#include "launch_protocol.h"
#include "../../sys/child_setup.h"
#include "pid_namespace.h"
#include "socket_io.h"

#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef SYS_close_range
#define SYS_close_range 436
#endif

static int control = -1;
/* The warm interpreter's process and our end of its socket; 0 and -1 when none runs. */
static pid_t warm_pid = 0;
static int warm_socket = -1;
/* The signalfd of SIGCHLD and DONE. */
static int children = -1;
#define DONE GOL_LAUNCH_DONE

/* A report, its unnamed fields zero. */
#define REPORT(...) (&(struct gol_launch_report){__VA_ARGS__})

/* Nothing to do if the runner is gone: the next read sees its end of file. */
static void send_report(const struct gol_launch_report* r) { gol_send_all(control, r, sizeof *r); }

static void report_failed(int error, const char* step) {
    struct gol_launch_report* r = REPORT(.kind = GOL_LAUNCH_FAILED, .value = error);
    strncpy(r->step, step, sizeof r->step - 1);
    send_report(r);
}

static int64_t usage_cpu_us(const struct rusage* u) {
    return (int64_t)(u->ru_utime.tv_sec + u->ru_stime.tv_sec) * 1000000 + u->ru_utime.tv_usec + u->ru_stime.tv_usec;
}

/* The CPU time of every warm interpreter reaped so far, with that of the moves each reaped, in
 * microseconds: part of reaped_cpu_us(), but no move's to count (its moves' own came with their
 * ENDED, or from /proc). */
static int64_t interpreters_cpu_us = 0;
/* The running move's process, and whether this process reaped it (a plain move's always is, a
 * warm one's when its interpreter died first): its CPU time is then part of reaped_cpu_us(). */
static pid_t move_pid = 0;
static int move_reaped = 0;

/* wait4(pid, status, options): a warm interpreter's end is noted (not a stop), its CPU time kept
 * apart in interpreters_cpu_us and its socket closed; the move's is noted in move_reaped. */
static pid_t reap(pid_t pid, int* status, int options) {
    int own_status;
    struct rusage usage;
    if (!status) status = &own_status;
    const pid_t got = wait4(pid, status, options, &usage);
    if (got > 0 && got == move_pid) move_reaped = 1;
    if (got > 0 && got == warm_pid && !WIFSTOPPED(*status)) {
        interpreters_cpu_us += usage_cpu_us(&usage);
        close(warm_socket);
        warm_pid = 0;
        warm_socket = -1;
    }
    return got;
}

/* Ends the warm interpreter, when one runs (reap() notes its end). */
static void stop_warm(void) {
    if (warm_pid <= 0) return;
    kill(warm_pid, SIGKILL);
    while (reap(warm_pid, NULL, 0) < 0 && errno == EINTR) {
    }
}

/* Reaps what has ended without waiting; the warm interpreter's end is noted. Returns how many. */
static int reap_ended(void) {
    int reaped = 0;
    for (pid_t pid; (pid = reap(-1, NULL, WNOHANG)) > 0 || (pid < 0 && errno == EINTR);)
        reaped += pid > 0;
    return reaped;
}

/* What /proc/PID/stat says of a process not yet reaped: its state, its parent, and its user
 * plus system CPU time in microseconds with that of the children it reaped; 0, 0 and -1 when it
 * cannot be read (gone). */
struct stat_line {
    char state;
    pid_t parent;
    int64_t cpu_us;
};

static struct stat_line read_stat(long pid) {
    const struct stat_line unknown = {0, 0, -1};
    char path[64], text[1024];
    snprintf(path, sizeof path, "/proc/%ld/stat", pid);
    const int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return unknown;
    const ssize_t n = read(fd, text, sizeof text - 1);
    close(fd);
    if (n <= 0) return unknown;
    text[n] = '\0';
    /* "pid (comm) state ppid ...": comm may hold anything, so from its last ')'; utime to cstime
     * are the 14th to 17th fields. */
    const char* after = strrchr(text, ')');
    char state = 0;
    int ppid = 0;
    unsigned long long utime, stime, cutime, cstime;
    if (!after || sscanf(after + 1, " %c %d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu %llu %llu", &state, &ppid,
                         &utime, &stime, &cutime, &cstime) != 6)
        return unknown;
    const unsigned long long ticks = utime + stime + cutime + cstime;
    return (struct stat_line){state, (pid_t)ppid,
                              (int64_t)(ticks * 1000000ULL / (unsigned long long)sysconf(_SC_CLK_TCK))};
}

/* Calls `each` for every process of the namespace but this one, as /proc lists them; -1 when
 * /proc cannot be read. Read with getdents64 into a buffer on the stack: opendir's would be mapped
 * and unmapped at every move (musl), which runs this once a move. */
static int for_each_process(void (*each)(long pid, void* context), void* context) {
    const int proc = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (proc < 0) return -1;
    /* The kernel's record, whatever the C library calls its own. */
    struct linux_dirent64 {
        uint64_t d_ino;
        int64_t d_off;
        unsigned short d_reclen;
        unsigned char d_type;
        char d_name[];
    };
    _Alignas(struct linux_dirent64) char entries[4096];
    long got;
    while ((got = syscall(SYS_getdents64, proc, entries, sizeof entries)) > 0) {
        for (long at = 0; at < got;) {
            const struct linux_dirent64* entry = (const struct linux_dirent64*)(entries + at);
            at += entry->d_reclen;
            char* end;
            const long pid = strtol(entry->d_name, &end, 10);
            if (*end == '\0' && pid > 1) each(pid, context);
        }
    }
    close(proc);
    return got == 0 ? 0 : -1;
}

/* The CPU time of every process this one has reaped, in microseconds. */
static int64_t reaped_cpu_us(void) {
    struct rusage reaped;
    getrusage(RUSAGE_CHILDREN, &reaped);
    return usage_cpu_us(&reaped);
}

/* One look at the namespace while it is being stopped: SIGSTOP again to each process not stopped
 * yet, counted in `running`, and the CPU time of all. */
struct freeze_pass {
    int running;
    int64_t cpu_us;
};

static void stop_and_count(long pid, void* pass) {
    const struct stat_line stat = read_stat(pid);
    if (stat.state != 0 && stat.state != 'T' && stat.state != 't' && stat.state != 'Z' && stat.state != 'X') {
        kill((pid_t)pid, SIGSTOP);
        ++((struct freeze_pass*)pass)->running;
    }
    if (stat.cpu_us >= 0) ((struct freeze_pass*)pass)->cpu_us += stat.cpu_us;
}

/* Stops every process of the namespace (a persistent bot between its moves) and returns their
 * CPU time, with that of every process this one reaped, in microseconds. Returns once /proc shows
 * each one stopped: a child whose fork was under way as the kill went round can come out of it
 * running, and one that came out stopped after a SIGCONT had passed it by was held for good (a
 * bot that forks as it is held hung within 100 turns). With none left in a fork, the
 * thaw's kill(-1, SIGCONT) reaches them all. Bounded, for one the kernel does not let stop (a
 * vfork's parent, a process in uninterruptible sleep): 2000 rounds of 50 us. */
static int64_t freeze_all(void) {
    kill(-1, SIGSTOP);
    struct freeze_pass pass = {1, 0};
    for (int round = 0; pass.running && round < 2000; ++round) {
        if (round > 0) nanosleep(&(struct timespec){0, 50000}, NULL);
        pass = (struct freeze_pass){0, 0};
        if (for_each_process(stop_and_count, &pass) != 0) break;
    }
    return pass.cpu_us + reaped_cpu_us();
}

static void kill_unless_warm(long pid, void* sent) {
    if (pid == warm_pid) return;
    if (kill((pid_t)pid, SIGKILL) == 0 && read_stat(pid).parent != warm_pid) ++*(int*)sent;
}

/* SIGKILL to every process of the namespace but this one and the warm interpreter, as /proc
 * lists them; how many were sent (zombies included) to processes that are ours to reap, or -1
 * when /proc cannot be read. The interpreter's children (a move that said it was done, and is
 * being unmapped) are its to reap: killed, but not waited for. */
static int kill_all_but_warm(void) {
    int sent = 0;
    return for_each_process(kill_unless_warm, &sent) == 0 ? sent : -1;
}

/* Every other process of the namespace killed and reaped, the warm interpreter aside. Killed
 * again before each wait: a process forked while the previous kill went round would otherwise
 * live on, and be waited for forever. Every process here is ours to reap (orphans come to
 * process 1), so ECHILD means none is left. */
static void end_all_others(void) {
    /* With a warm interpreter, until /proc lists no other; its own middle process is its to
     * reap, hence the short waits. Bounded: an interpreter that never lets the namespace empty
     * (stopped, say, with a child unreaped) is ended, and the plain way below takes over. */
    for (int round = 0; warm_pid > 0; ++round) {
        kill(warm_pid, SIGCONT);
        const int sent = kill_all_but_warm();
        if (sent <= 0 || round == 1000) {
            if (sent != 0) stop_warm();
            break;
        }
        if (reap_ended() == 0) {
            struct pollfd wait_child = {children, POLLIN, 0};
            poll(&wait_child, 1, 10);
            struct signalfd_siginfo info;
            while (read(children, &info, sizeof info) > 0) {
            }
        }
    }
    if (warm_pid > 0) {
        reap_ended();
        return;
    }
    for (;;) {
        kill(-1, SIGKILL);
        if (reap(-1, NULL, 0) < 0 && errno == ECHILD) return;
    }
}

/* One request's header and the descriptors it carries (up to GOL_LAUNCH_MAX_FDS; -1 where
 * none). At end of file the runner is gone, and so is everything here. */
static void read_request(struct gol_launch_request* request, int fds[GOL_LAUNCH_MAX_FDS]) {
    if (gol_read_exact(control, request, sizeof *request, -1, fds) != 0) {
        end_all_others();
        _exit(0);
    }
}

/* What the move's process needs between clone() and exec. It shares our memory until it execs,
 * so it reports a failure here. */
struct move {
    const struct gol_launch_request* request;
    const char* cwd;
    char** argv; /* argv[0] is the program's path: the runner resolved it */
    char** envp;
    int stdin_fd, stdout_fd, stderr_fd, pass_fd;
    int error;
    const char* step;
};

/* The move's process: only async-signal-safe calls until execve. */
static int start_move(void* arg) {
    struct move* m = arg;
    /* Close-on-exec already; closed first, so that no descriptor of the move's lands on its
     * number before, and not even a failed exec leaves it open. */
    close(control);
    const struct gol_launch_request* r = m->request;
    const struct gol_child_setup setup = {m->stdin_fd,
                                          m->stdout_fd,
                                          m->stderr_fd,
                                          m->pass_fd,
                                          r->pass_as,
                                          m->cwd,
                                          r->address_space,
                                          r->cpu_seconds,
                                          r->file_size,
                                          r->open_files,
                                          (r->flags & GOL_LAUNCH_NPROC) ? r->processes : 0};
    const char* failed = gol_set_up_child(&setup);
    if (failed == NULL) {
        execve(m->argv[0], m->argv, m->envp);
        failed = "execve";
    }
    m->error = errno;
    m->step = failed;
    _exit(127);
}

/* Whether /proc is this namespace's own, as kill_all_but_warm needs: bubblewrap mounts one;
 * contained, this process mounts one in a mount namespace of its own (it may: it is root, or
 * owns the user namespace it made with the PID namespace). 0, or -1 with errno. */
static int own_proc(void) {
    char self[16];
    ssize_t n = readlink("/proc/self", self, sizeof self);
    if (n == 1 && self[0] == '1') return 0;
    if (unshare(CLONE_NEWNS) != 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0 ||
        mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) != 0)
        return -1;
    n = readlink("/proc/self", self, sizeof self);
    if (n == 1 && self[0] == '1') return 0;
    errno = ENOTSUP;
    return -1;
}

/* The interpreter's next reply, within a few seconds. 0, or -1 with errno when it did not come. */
static int read_warm_reply(struct gol_warm_reply* reply) {
    return gol_read_exact(warm_socket, reply, sizeof *reply, 10000, NULL);
}

/* The option a warm interpreter starts with, by its script's language, so that nothing a bot can
 * write is on its way in: HOME is the bot's scratch folder. python3 -I reads no user
 * site-packages (a .pth file there is code) and no PYTHON* variable; ruby loads no gem and no
 * RUBYOPT (warm_ruby.rb then loads rubygems with the system's gem folders only). NULL for a
 * script of neither. */
static const char* warm_option(const char* script) {
    const char* dot = strrchr(script, '.');
    if (dot && strcmp(dot, ".py") == 0) return "-I";
    if (dot && strcmp(dot, ".rb") == 0) return "--disable=gems,rubyopt";
    return NULL;
}

/* Starts `m->argv[0] OPTION script` with its socket as descriptor 3, in the move's directory and
 * environment, and waits for it to say it is ready. 0, or -1 with errno. */
static int start_warm(const struct move* m, const char* script) {
    int sv[2];
    const char* option = warm_option(script);
    if (!option) {
        errno = EINVAL;
        return -1;
    }
    if (own_proc() != 0 || socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) return -1;
    char* argv[] = {m->argv[0], (char*)option, (char*)script, NULL};
    const pid_t pid = fork();
    if (pid < 0) {
        const int error = errno;
        close(sv[0]);
        close(sv[1]);
        errno = error;
        return -1;
    }
    if (pid == 0) {
        /* A move's set-up, but with no limits (each move sets its own), nothing on its standard
         * streams and its socket as descriptor 3. */
        close(control);
        const int null = open("/dev/null", O_RDWR | O_CLOEXEC);
        const struct gol_child_setup setup = {null, null, null, sv[1], 3, m->cwd, 0, 0, 0, 0, 0};
        if (null < 0 || gol_set_up_child(&setup) != NULL || syscall(SYS_close_range, 4, ~0u, 0) != 0) _exit(127);
        execve(argv[0], argv, m->envp);
        _exit(127);
    }
    close(sv[1]);
    warm_pid = pid;
    warm_socket = sv[0];
    struct gol_warm_reply ready;
    if (read_warm_reply(&ready) != 0 || ready.kind != GOL_LAUNCH_READY) {
        const int error = errno;
        stop_warm();
        errno = error;
        return -1;
    }
    return 0;
}

/* Has the warm interpreter run the move: the request and its stdout, stderr (and stdin)
 * forwarded as they came, which the process it forked for the move reads. The move's pid, or -1
 * with errno; the interpreter reports its end. `started_ns`: when the request went to the
 * interpreter, by this process's clock; a time the interpreter told would be a bot's to choose,
 * were it ever taken over. */
static pid_t fork_warm(const struct gol_launch_request* request, const int fds[GOL_LAUNCH_MAX_FDS],
                       const char* strings, const struct move* m, const char* script, int64_t* started_ns) {
    if (warm_pid <= 0 && start_warm(m, script) != 0) return -1;
    const int count = (request->flags & GOL_LAUNCH_STDIN) ? 3 : 2;
    struct gol_warm_reply reply;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    *started_ns = (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
    const int sent = gol_send_message(warm_socket, request, sizeof *request, fds, count) == 0 &&
                     gol_send_all(warm_socket, strings, request->strings_bytes) == 0;
    if (!sent || read_warm_reply(&reply) != 0 || reply.kind != GOL_LAUNCH_STARTED) {
        const int error = !sent ? EPIPE : reply.kind == GOL_LAUNCH_FAILED ? reply.value : errno;
        stop_warm();
        errno = error;
        return -1;
    }
    return reply.value;
}

/* The string at *at, and *at moved past it; the empty string at `end` (which holds a NUL) once
 * the runner's strings run out. */
static char* next_string(char** at, char* end) {
    char* s = *at;
    if (s < end) *at += strlen(s) + 1;
    return s < end ? s : end;
}

/* Memory kept from move to move, grown when a move needs more: a new block per move cost an
 * mmap, a munmap and a zero-filled page fault per page of a board on every move (musl maps
 * blocks of a board's size), all of it on the move's CPU (issue 39). */
struct kept_buffer {
    void* data;
    size_t size;
};

/* At least `size` bytes of `b`, their contents undefined; NULL when it cannot grow. */
static void* at_least(struct kept_buffer* b, size_t size) {
    if (b->size < size) {
        void* grown = realloc(b->data, size);
        if (!grown) return NULL;
        b->data = grown;
        b->size = size;
    }
    return b->data;
}

/* Runs one move: starts it, reports, waits for its end or the runner's KILL, ends the rest of
 * the namespace, reports the end. */
static void run_move(const struct gol_launch_request* request, int fds[GOL_LAUNCH_MAX_FDS]) {
    static struct kept_buffer strings_kept, argv_kept, envp_kept;
    char* strings = NULL;
    const uint32_t bytes = request->strings_bytes;
    int ok = bytes <= GOL_LAUNCH_MAX_STRINGS && request->argc >= 1 && request->argc < (1u << 20) &&
             request->envc < (1u << 20) && (strings = at_least(&strings_kept, bytes + 1)) != NULL;
    if (!ok || gol_read_exact(control, strings, bytes, -1, NULL) != 0) {
        /* Unreadable: the stream can no longer be trusted to be in step. */
        end_all_others();
        _exit(127);
    }
    strings[bytes] = '\0';
    char** const argv = at_least(&argv_kept, (request->argc + 1) * sizeof(char*));
    char** const envp = at_least(&envp_kept, (request->envc + 1) * sizeof(char*));
    if (!argv || !envp) _exit(127);
    argv[request->argc] = NULL;
    envp[request->envc] = NULL;
    char* at = strings;
    char* const end = strings + bytes;
    const char* cwd = next_string(&at, end);
    const int warm_move = (request->flags & GOL_LAUNCH_WARM) != 0;
    const char* warm_script = warm_move ? next_string(&at, end) : NULL;
    for (uint32_t i = 0; i < request->argc; ++i) argv[i] = next_string(&at, end);
    for (uint32_t i = 0; i < request->envc; ++i) envp[i] = next_string(&at, end);
    const int has_stdin = (request->flags & GOL_LAUNCH_STDIN) != 0;
    const int persistent = (request->flags & GOL_LAUNCH_PERSISTENT) != 0;
    struct move m = {request,
                     cwd,
                     argv,
                     envp,
                     has_stdin ? fds[2] : -1,
                     fds[0],
                     fds[1],
                     (request->flags & GOL_LAUNCH_PASS_FD) ? fds[has_stdin ? 3 : 2] : -1,
                     0,
                     ""};
    static char stack[64 * 1024];
    int64_t started_ns = 0;
    /* A DONE left from an earlier move (one that also ended otherwise) must not end this one. */
    struct signalfd_siginfo info;
    while (warm_move && read(children, &info, sizeof info) > 0) {
    }
    /* A persistent move's CPU time is read from this namespace's /proc (freeze_all) and counts
     * from here: what earlier moves' processes used is reaped already. So does any move's, when
     * it has ended and everything of it is reaped (below). */
    const int64_t cpu_before = reaped_cpu_us();
    const int64_t interpreters_before = interpreters_cpu_us;
    pid_t child = -1;
    if (persistent && own_proc() != 0) m.step = "proc";
    else child = warm_move ? fork_warm(request, fds, strings, &m, warm_script, &started_ns)
                           : clone(start_move, stack + sizeof stack, CLONE_VM | CLONE_VFORK | SIGCHLD, &m);
    const int error = child < 0 ? errno : m.error;
    for (int i = 0; i < GOL_LAUNCH_MAX_FDS; ++i)
        if (fds[i] >= 0) close(fds[i]);
    if (child < 0 || m.error != 0) {
        end_all_others();
        report_failed(error, warm_move ? "warm" : m.step[0] ? m.step : "clone");
        return;
    }
    send_report(REPORT(.kind = GOL_LAUNCH_STARTED, .started_ns = started_ns));

    /* Orphans of the namespace are ours: reap them all until the move's process ends, which a
     * warm move's interpreter reports (the move is its child, and ours once it is gone). */
    int status = 0;
    /* A warm move is the interpreter's child: its CPU time is the interpreter's to tell, or
     * /proc's when it said DONE. */
    int64_t cpu_us = -1;
    /* Ended by DONE: the interpreter's ENDED is still to come, and read after the report. */
    int interpreter_owes_end = 0;
    move_pid = child;
    move_reaped = 0;
    for (int ended = 0; !ended;) {
        struct pollfd waits[3] = {{control, POLLIN, 0}, {children, POLLIN, 0}, {warm_socket, POLLIN, 0}};
        if (poll(waits, warm_move && warm_pid > 0 ? 3 : 2, -1) < 0) continue;
        if (waits[1].revents) {
            int done = 0;
            while (read(children, &info, sizeof info) > 0)
                if (info.ssi_signo == DONE && warm_move && (pid_t)info.ssi_pid == child) done = 1;
            int s;
            pid_t pid;
            while ((pid = reap(-1, &s, WNOHANG)) > 0 || (pid < 0 && errno == EINTR)) {
                if (pid == child) {
                    status = s;
                    ended = 1;
                    break;
                }
            }
            /* A warm move that stopped its interpreter would wait for ever for its end. */
            if (warm_pid > 0 && reap(warm_pid, &s, WUNTRACED | WNOHANG) > 0 && WIFSTOPPED(s))
                kill(warm_pid, SIGCONT);
            /* Its output is closed and it is exiting with status 0: DONE comes from the move's
             * own process only, which could end its move early by exiting as well. Once the
             * interpreter has reaped it, /proc has no CPU time of it: the interpreter's ENDED,
             * on its way, has. */
            if (!ended && done && (cpu_us = read_stat(child).cpu_us) >= 0) {
                interpreter_owes_end = warm_pid > 0;
                ended = 1;
            }
        }
        if (warm_move && !ended && warm_pid > 0 && waits[2].revents) {
            struct gol_warm_reply end;
            if (read_warm_reply(&end) == 0 && end.kind == GOL_LAUNCH_ENDED) {
                status = end.value;
                cpu_us = end.cpu_us;
                ended = 1;
            } else {
                /* The interpreter died (a move may kill it) or said what it should not: the
                 * move, its orphan now, is ours to wait for. */
                stop_warm();
            }
        }
        if (warm_move && !ended && warm_pid <= 0 && kill(child, 0) != 0 && errno == ESRCH) {
            /* The interpreter reaped the move just before it died: the status went with it. */
            status = SIGKILL; /* the wait status of a death by SIGKILL */
            ended = 1;
        }
        if (!ended && waits[0].revents) {
            struct gol_launch_request next;
            int more[GOL_LAUNCH_MAX_FDS];
            read_request(&next, more);
            for (int i = 0; i < GOL_LAUNCH_MAX_FDS; ++i)
                if (more[i] >= 0) close(more[i]);
            if (persistent && next.kind == GOL_LAUNCH_FREEZE) {
                send_report(REPORT(.kind = GOL_LAUNCH_FROZEN, .cpu_us = freeze_all() - cpu_before));
            } else if (persistent && next.kind == GOL_LAUNCH_THAW) {
                kill(-1, SIGCONT);
            } else if (warm_pid <= 0 || kill_all_but_warm() < 0) {
                /* Else only KILL is the runner's to send during a move (one request at a time):
                 * every process but this one is killed, the warm interpreter too when /proc fails. */
                stop_warm();
                kill(-1, SIGKILL);
            }
        }
    }
    end_all_others();
    /* Every process of the namespace reaped here since the move started, the interpreters aside:
     * the move's orphans too, so that a child it never waited for hides no CPU time where no
     * control group counts the move's tree. With the move's own when it was reaped here, else
     * added to what its interpreter or /proc told (-1: not known). */
    const int64_t reaped = reaped_cpu_us() - cpu_before - (interpreters_cpu_us - interpreters_before);
    cpu_us = move_reaped ? reaped : cpu_us >= 0 ? cpu_us + reaped : -1;
    move_pid = 0;
    send_report(REPORT(.kind = GOL_LAUNCH_ENDED, .value = status, .cpu_us = cpu_us));
    struct gol_warm_reply late;
    if (interpreter_owes_end && warm_pid > 0 && (read_warm_reply(&late) != 0 || late.kind != GOL_LAUNCH_ENDED))
        stop_warm();
}

/* LISTEN: a TCP socket listening on this namespace's 127.0.0.1, sent to the runner with its port.
 * Ours is closed once sent: the runner's copy is the only one, and nothing of the bot's has it. */
static void listen_for_bot(void) {
    const char* step = "socket";
    const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t length = sizeof address;
    if (fd >= 0) {
        if (bind(fd, (struct sockaddr*)&address, sizeof address) != 0) step = "bind";
        else if (listen(fd, 1) != 0) step = "listen";
        else if (getsockname(fd, (struct sockaddr*)&address, &length) != 0) step = "getsockname";
        else step = NULL;
    }
    if (step) {
        const int error = errno;
        if (fd >= 0) close(fd);
        report_failed(error, step);
        return;
    }
    gol_send_message(control, REPORT(.kind = GOL_LAUNCH_LISTENING, .value = ntohs(address.sin_port)),
                     sizeof(struct gol_launch_report), &fd, 1);
    close(fd);
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
    sigaddset(&chld, DONE);
    sigprocmask(SIG_BLOCK, &chld, NULL);
    children = signalfd(-1, &chld, SFD_CLOEXEC | SFD_NONBLOCK);
    if (children < 0) return 127;
    send_report(REPORT(.kind = GOL_LAUNCH_READY));
    for (;;) {
        struct gol_launch_request request;
        int fds[GOL_LAUNCH_MAX_FDS];
        read_request(&request, fds);
        if (request.kind == GOL_LAUNCH_RUN) {
            run_move(&request, fds);
        } else {
            /* Else a KILL that crossed the move's own end (nothing is running) or a LISTEN; neither
             * carries descriptors. */
            if (request.kind == GOL_LAUNCH_LISTEN) listen_for_bot();
            for (int i = 0; i < GOL_LAUNCH_MAX_FDS; ++i)
                if (fds[i] >= 0) close(fds[i]);
        }
    }
}
