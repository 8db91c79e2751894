/* Making a PID namespace from a program that was not started as its process 1: the bot launcher
 * without the sandbox (launcher.c). C, static. */
#ifndef GOL_RUNNER_LAUNCHER_PID_NAMESPACE_H
#define GOL_RUNNER_LAUNCHER_PID_NAMESPACE_H

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

static int gol_write_file(const char* path, const char* text) {
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    ssize_t n = write(fd, text, strlen(text));
    int error = errno;
    close(fd);
    errno = error;
    return n == (ssize_t)strlen(text) ? 0 : -1;
}

/* A new PID namespace, and in a new user namespace too (our own uid and gid mapped to
 * themselves) unless a PID namespace alone can be made (root); then process 1 of it is forked,
 * and this process waits for it and exits, closing `channel` first so that only process 1
 * holds it. Returns 0 in process 1, -1 with errno when the namespaces could not be made. */
static int gol_enter_pid_namespace(int channel) {
    char uid_map[64], gid_map[64];
    snprintf(uid_map, sizeof uid_map, "%u %u 1", (unsigned)geteuid(), (unsigned)geteuid());
    snprintf(gid_map, sizeof gid_map, "%u %u 1", (unsigned)getegid(), (unsigned)getegid());
    int alive[2];
    pid_t init;
    if (unshare(CLONE_NEWPID) != 0 &&
        (unshare(CLONE_NEWUSER | CLONE_NEWPID) != 0 || gol_write_file("/proc/self/setgroups", "deny") != 0 ||
         gol_write_file("/proc/self/uid_map", uid_map) != 0 || gol_write_file("/proc/self/gid_map", gid_map) != 0))
        return -1;
    if (pipe2(alive, O_CLOEXEC) != 0 || (init = fork()) < 0) return -1;
    if (init == 0) {
        /* Our parent's death must end the namespace too; it may have died before this call,
         * which its end of `alive` tells. */
        close(alive[1]);
        struct pollfd parent = {alive[0], POLLIN, 0};
        if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || poll(&parent, 1, 0) != 0) _exit(127);
        close(alive[0]);
        return 0;
    }
    close(channel);
    int status;
    while (waitpid(init, &status, 0) < 0 && errno == EINTR) {
    }
    _exit(0);
}

#endif
