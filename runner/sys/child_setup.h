/* A child's set-up between clone() and exec, the one copy of it: for a bot's every process and a
 * build's (the launcher's start_move, sandbox/launcher/launcher.c, and a warm interpreter's fork,
 * which does not exec: sandbox/launcher/warm_move.c) and for the runner's plain spawns: the
 * launcher itself and probes (process.cpp). C, static, async-signal-safe. */
#ifndef GOL_RUNNER_SYS_CHILD_SETUP_H
#define GOL_RUNNER_SYS_CHILD_SETUP_H

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <sys/resource.h>
#include <unistd.h>

struct gol_child_setup {
    int stdin_fd; /* -1: /dev/null */
    int stdout_fd;
    int stderr_fd;
    int pass_fd; /* -1: none; else it becomes number pass_as, close-on-exec cleared */
    int pass_as;
    const char* cwd; /* NULL or "": stay */
    /* 0 leaves a limit unset, as ResourceLimits (process.hpp). RLIMIT_NPROC counts every process
     * of the uid on the host: the caller sets `processes` only for a uid of the child's own. */
    uint64_t address_space, cpu_seconds, file_size, open_files, processes;
};

/* What gol_set_up_child does but for the signal dispositions, which a warm interpreter's fork
 * keeps (warm_move.c): the interpreter's are those a fresh start of it has. */
static inline const char* gol_set_up_child_keeping_signal_actions(const struct gol_child_setup* c) {
    if (setsid() < 0) return "setsid";
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    int in = c->stdin_fd;
    if (in < 0 && (in = open("/dev/null", O_RDONLY | O_CLOEXEC)) < 0) return "open /dev/null";
    if (dup2(in, 0) < 0 || dup2(c->stdout_fd, 1) < 0 || dup2(c->stderr_fd, 2) < 0) return "dup2";
    /* dup2 onto itself would keep close-on-exec. */
    if (c->pass_fd >= 0 &&
        (c->pass_fd == c->pass_as ? fcntl(c->pass_as, F_SETFD, 0) != 0 : dup2(c->pass_fd, c->pass_as) < 0))
        return "passing a descriptor";
    if (c->cwd && c->cwd[0] && chdir(c->cwd) != 0) return "chdir";
    const struct {
        int resource;
        uint64_t value;
        const char* step;
    } limits[] = {{RLIMIT_AS, c->address_space, "setrlimit RLIMIT_AS"},
                  {RLIMIT_CPU, c->cpu_seconds, "setrlimit RLIMIT_CPU"},
                  {RLIMIT_FSIZE, c->file_size, "setrlimit RLIMIT_FSIZE"},
                  {RLIMIT_NOFILE, c->open_files, "setrlimit RLIMIT_NOFILE"},
                  {RLIMIT_NPROC, c->processes, "setrlimit RLIMIT_NPROC"}};
    for (size_t i = 0; i < sizeof limits / sizeof limits[0]; ++i) {
        if (limits[i].value == 0) continue;
        struct rlimit l = {(rlim_t)limits[i].value, (rlim_t)limits[i].value};
        /* CPU: the soft limit sends SIGXCPU, which names the cause; the hard one a second later kills. */
        if (limits[i].resource == RLIMIT_CPU) l.rlim_max = l.rlim_cur + 1;
        if (setrlimit(limits[i].resource, &l) != 0) return limits[i].step;
    }
    struct rlimit no_core = {0, 0};
    setrlimit(RLIMIT_CORE, &no_core);
    return NULL;
}

/* A session of its own, so a process group of its own (pgid = pid) and no controlling terminal
 * (a bot cannot open /dev/tty to type into the host's shell); the default signal dispositions
 * and an empty mask (ignored and blocked signals survive exec); its standard streams; its
 * folder; its limits, core dumps off. NULL, or the step that failed with errno set. */
static inline const char* gol_set_up_child(const struct gol_child_setup* c) {
    struct sigaction dfl;
    for (size_t i = 0; i < sizeof dfl; ++i) ((char*)&dfl)[i] = 0;
    dfl.sa_handler = SIG_DFL;
    const int reset[] = {SIGPIPE, SIGINT, SIGTERM, SIGXCPU, SIGXFSZ};
    for (size_t i = 0; i < sizeof reset / sizeof reset[0]; ++i) sigaction(reset[i], &dfl, NULL);
    return gol_set_up_child_keeping_signal_actions(c);
}

#endif
