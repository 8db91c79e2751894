/* Messages over the launcher's Unix sockets, whole, with descriptors attached (SCM_RIGHTS) or
 * not: the one way the runner (sandbox/launcher.cpp) and the launcher (launcher.c) send and take
 * them. C, so that both compile it. */
#ifndef GOL_SOCKET_IO_H
#define GOL_SOCKET_IO_H

#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "launch_protocol.h"

/* Room for the most descriptors one message carries, aligned for cmsghdr. */
union gol_fds_control {
    char bytes[CMSG_SPACE(GOL_LAUNCH_MAX_FDS * sizeof(int))];
    struct cmsghdr align;
};

/* Up to `size` bytes into `data` in one recvmsg, and the descriptors that came with them,
 * close-on-exec, in fds[0..GOL_LAUNCH_MAX_FDS) (-1 where none came; any beyond are closed): how
 * many bytes came, 0 at end of file, or -1 with errno. */
static inline ssize_t gol_receive_with_fds(int socket, void* data, size_t size, int fds[GOL_LAUNCH_MAX_FDS]) {
    union gol_fds_control control;
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

/* The whole of `data`, without SIGPIPE: 0, or -1 with errno once the peer is gone. */
static inline int gol_send_all(int socket, const void* data, size_t size) {
    const char* at = (const char*)data;
    while (size > 0) {
        const ssize_t put = send(socket, at, size, MSG_NOSIGNAL);
        if (put < 0 && errno == EINTR) continue;
        if (put <= 0) return -1;
        at += put;
        size -= (size_t)put;
    }
    return 0;
}

/* The whole of `data` with `count` descriptors (at most GOL_LAUNCH_MAX_FDS) attached to its first
 * byte, without SIGPIPE: the first part in one sendmsg, the rest by gol_send_all. 0, or -1 with
 * errno. */
static inline int gol_send_message(int socket, const void* data, size_t size, const int* fds, int count) {
    union gol_fds_control control;
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
    return put < 0 ? -1 : gol_send_all(socket, (const char*)data + put, size - (size_t)put);
}

/* Exactly `size` bytes, waiting at most `timeout_ms` for each part (-1: no limit), and when `fds`
 * is given the descriptors that came with the first part, as gol_receive_with_fds gives them
 * (those of any later part are the kernel's to close): 0, or -1 with errno (ETIMEDOUT; EPIPE at
 * end of file). */
static inline int gol_read_exact(int socket, void* buffer, size_t size, int timeout_ms, int* fds) {
    char* at = (char*)buffer;
    for (int i = 0; fds && i < GOL_LAUNCH_MAX_FDS; ++i) fds[i] = -1;
    while (size > 0) {
        struct pollfd p = {socket, POLLIN, 0};
        const int ready = poll(&p, 1, timeout_ms);
        if (ready < 0 && errno == EINTR) continue;
        if (ready == 0) errno = ETIMEDOUT;
        if (ready <= 0) return -1;
        const ssize_t got = fds && at == buffer ? gol_receive_with_fds(socket, at, size, fds) : read(socket, at, size);
        if (got < 0 && errno == EINTR) continue;
        if (got == 0) errno = EPIPE;
        if (got <= 0) return -1;
        at += got;
        size -= (size_t)got;
    }
    return 0;
}

#endif
