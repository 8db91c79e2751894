/* Process 1 of a contained bot's PID namespace (SpawnSpec::contain, runner/sys/process.cpp).
 * Usage, by the runner only: gol-namespace-init FD PROGRAM ARGV0 [ARG...]
 *
 * Starts PROGRAM with the given argv and this process's environment, descriptors, directory,
 * limits and identity (the runner set them all up before exec'ing this), reaps every process
 * orphaned in the namespace, and reports the bot's start and end on FD (init_report.h). It
 * exits as soon as the bot has ended: the kernel then kills whatever else is left in the
 * namespace, daemons included, and the runner reaps this process only once all of it is gone.
 * The runner set PR_SET_PDEATHSIG(SIGKILL) on it, so the runner's death ends the namespace too.
 *
 * A root runner clones this process straight into a new PID namespace, as its process 1. A
 * runner that is not root cannot; nor can its child map itself into a user namespace, because
 * the child shares the runner's memory until exec and the runner is not dumpable, which makes
 * /proc/self/uid_map root's. So when not started as process 1, this program makes the user and
 * PID namespaces itself and forks process 1, staying as its parent until it ends.
 *
 * The bot's outcome travels on FD rather than as this process's own: process 1 of a namespace
 * ignores every signal it has no handler for, so it could not die of the bot's signal.
 *
 * Statically linked, so it starts fast and the LD_PRELOAD meant for the bot (long boards,
 * docs/protocol.md) has no effect on it. */
#define _GNU_SOURCE
#include "init_report.h"
#include "pid_namespace.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

static void report(int fd, int32_t kind, int32_t value, int64_t max_rss_kb) {
    struct gol_init_report r = {kind, value, max_rss_kb};
    /* Nothing to do if the runner is gone: it is what would read this. */
    while (write(fd, &r, sizeof r) < 0 && errno == EINTR) {
    }
}

struct start {
    char* program;
    char** argv;
    int error; /* set by the child when execve fails; it shares our memory until then */
};

static int start_bot(void* arg) {
    struct start* s = arg;
    execve(s->program, s->argv, environ);
    s->error = errno;
    _exit(127);
}

int main(int argc, char** argv) {
    if (argc < 4) return 127;
    const int fd = atoi(argv[1]);
    /* The bot must not inherit the runner's channel. */
    if (fcntl(fd, F_SETFD, FD_CLOEXEC) != 0) return 127;
    if (getpid() != 1 && gol_enter_pid_namespace(fd) != 0) {
        report(fd, GOL_INIT_SETUP_FAILED, errno, 0);
        return 127;
    }

    /* clone(CLONE_VM | CLONE_VFORK), as the runner starts us: we learn whether execve
     * succeeded before going on, and nothing of ours is copied. */
    static char stack[16 * 1024];
    struct start s = {argv[2], argv + 3, 0};
    const pid_t bot = clone(start_bot, stack + sizeof stack, CLONE_VM | CLONE_VFORK | SIGCHLD, &s);
    if (bot < 0 || s.error != 0) {
        int error = bot < 0 ? errno : s.error;
        if (bot > 0) waitpid(bot, NULL, 0);
        report(fd, GOL_INIT_EXEC_FAILED, error, 0);
        return 127;
    }
    report(fd, GOL_INIT_STARTED, 0, 0);

    /* Orphans of the namespace are ours: reap them all until the bot itself ends. */
    for (;;) {
        int status = 0;
        struct rusage usage;
        const pid_t pid = wait4(-1, &status, 0, &usage);
        if (pid == bot) {
            report(fd, GOL_INIT_ENDED, status, usage.ru_maxrss);
            return 0;
        }
        if (pid < 0 && errno != EINTR) return 127;
    }
}
