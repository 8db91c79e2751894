/* Bytes with descriptors attached (SCM_RIGHTS) over the launcher's Unix sockets: the one way the
 * runner (sandbox/launcher.cpp) and the launcher (launcher.c) send and take them. C, so that
 * both compile it. */
#ifndef GOL_PASS_FDS_H
#define GOL_PASS_FDS_H

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "launch_protocol.h"

/* `size` bytes of `data` with `count` descriptors attached (at most GOL_LAUNCH_MAX_FDS), in one
 * sendmsg without SIGPIPE: how many bytes went (the descriptors went with the first), or -1
 * with errno. */
static inline ssize_t gol_send_with_fds(int socket, const void* data, size_t size, const int* fds, int count) {
    union { /* for cmsghdr's alignment */
        char bytes[CMSG_SPACE(GOL_LAUNCH_MAX_FDS * sizeof(int))];
        struct cmsghdr align;
    } control;
    memset(&control, 0, sizeof control);
    struct iovec iov = {(void*)data, size};
    struct msghdr msg;
    memset(&msg, 0, sizeof msg);
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    if (count > 0) {
        msg.msg_control = control.bytes;
        msg.msg_controllen = CMSG_SPACE((size_t)count * sizeof(int));
        struct cmsghdr* c = CMSG_FIRSTHDR(&msg);
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SCM_RIGHTS;
        c->cmsg_len = CMSG_LEN((size_t)count * sizeof(int));
        memcpy(CMSG_DATA(c), fds, (size_t)count * sizeof(int));
    }
    ssize_t put;
    while ((put = sendmsg(socket, &msg, MSG_NOSIGNAL)) < 0 && errno == EINTR) {
    }
    return put;
}

/* Up to `size` bytes into `data` in one recvmsg, and the descriptors that came with them,
 * close-on-exec, in fds[0..GOL_LAUNCH_MAX_FDS) (-1 where none came; any beyond are closed): how
 * many bytes came, 0 at end of file, or -1 with errno. */
static inline ssize_t gol_receive_with_fds(int socket, void* data, size_t size, int fds[GOL_LAUNCH_MAX_FDS]) {
    union { /* for cmsghdr's alignment */
        char bytes[CMSG_SPACE(GOL_LAUNCH_MAX_FDS * sizeof(int))];
        struct cmsghdr align;
    } control;
    struct iovec iov = {data, size};
    struct msghdr msg;
    memset(&msg, 0, sizeof msg);
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control.bytes;
    msg.msg_controllen = sizeof control.bytes;
    for (int i = 0; i < GOL_LAUNCH_MAX_FDS; ++i) fds[i] = -1;
    ssize_t got;
    while ((got = recvmsg(socket, &msg, MSG_CMSG_CLOEXEC)) < 0 && errno == EINTR) {
    }
    int taken = 0;
    for (struct cmsghdr* c = got < 0 ? NULL : CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
        if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
        const size_t n = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        for (size_t i = 0; i < n; ++i) {
            int fd;
            memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof fd);
            if (taken < GOL_LAUNCH_MAX_FDS) fds[taken++] = fd;
            else close(fd);
        }
    }
    return got;
}

#endif
