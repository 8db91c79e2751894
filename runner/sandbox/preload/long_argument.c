/* Preloaded (LD_PRELOAD) into an argv bot whose board is longer than Linux accepts for one
 * command-line argument (MAX_ARG_STRLEN, 128 KiB). The runner passes a placeholder in the
 * board's place and the board itself in a memfd; GOL_LONG_ARGUMENTS says which argument and which
 * descriptor ("BACK:FD", comma-separated). Before main() runs, the constructor puts the text
 * in the argument's place and takes its own variables out of the environment, so the program
 * sees what a plain exec with the board in argv would give it. The exec wrappers below send an
 * over-long argument the same way to a program the bot starts in turn (`exec python3 bot.py
 * "$1"` in a launch script).
 *
 * BACK counts an argument's place back from the last (0: the last). For a script the kernel runs
 * through its `#!` line it replaces argv[0] with the interpreter, the line's option if it has
 * one, and the script's path, and keeps the arguments after it: counted from the front, each
 * argument moves one or two places (more when the interpreter is a script too); counted from the
 * back, none does.
 *
 * The runner checks delivery by the memfd's file offset, which the child shares: taking the
 * board (mapping it, or reading it all) moves the offset to the end. A program this library
 * never reaches (statically linked) leaves it at 0.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <spawn.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "long_argument.h"

#define PRELOAD_VAR "LD_PRELOAD"

extern char** environ;

/* This library's path as the dynamic loader knows it: what LD_PRELOAD must name again. */
static const char* self_path(void) {
    Dl_info info;
    if (dladdr((void*)&self_path, &info) == 0 || info.dli_fname == NULL) return NULL;
    return info.dli_fname;
}

/* The value of `name` in `env`, or NULL. */
static const char* find_var(char* const* env, const char* name) {
    size_t n = strlen(name);
    for (; env != NULL && *env != NULL; ++env)
        if (strncmp(*env, name, n) == 0 && (*env)[n] == '=') return *env + n + 1;
    return NULL;
}

static size_t count(char* const* v) {
    size_t n = 0;
    while (v != NULL && v[n] != NULL) ++n;
    return n;
}

/* ---- In the bot: the constructor ---- */

/* The whole of `fd` read from its current offset, NUL-terminated, or NULL. */
static char* read_all(int fd, size_t* length) {
    struct stat st;
    if (fstat(fd, &st) != 0 || st.st_size < 0) return NULL;
    size_t size = (size_t)st.st_size;
    char* text = malloc(size + 1);
    if (text == NULL) return NULL;
    size_t got = 0;
    while (got < size) {
        ssize_t n = read(fd, text + got, size - got);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        got += (size_t)n;
    }
    if (got != size) {
        free(text);
        return NULL;
    }
    text[size] = '\0';
    *length = strlen(text); /* an argument ends at its first NUL, as execve would cut it */
    return text;
}

/* Removes the environment entry `entry` points at, keeping the order of the rest. */
static void remove_entry(char** entry) {
    do entry[0] = entry[1];
    while (*entry++ != NULL);
}

/* Takes GOL_LONG_ARGUMENTS out of the environment, and LD_PRELOAD's mention of this library. */
static void clean_environment(char** envp) {
    const char* self = self_path();
    size_t self_len = self ? strlen(self) : 0;
    for (char** e = envp; e != NULL && *e != NULL;) {
        if (strncmp(*e, GOL_LONG_ARGUMENTS_VAR "=", sizeof GOL_LONG_ARGUMENTS_VAR) == 0) {
            remove_entry(e);
            continue;
        }
        if (self != NULL && strncmp(*e, PRELOAD_VAR "=", sizeof PRELOAD_VAR) == 0) {
            const char* value = *e + sizeof PRELOAD_VAR;
            if (strcmp(value, self) == 0) {
                remove_entry(e);
                continue;
            }
            /* The exec wrappers put this library first in front of what the bot had. */
            if (strncmp(value, self, self_len) == 0 && value[self_len] == ':') {
                const char* rest = value + self_len + 1;
                char* kept = malloc(sizeof PRELOAD_VAR + strlen(rest) + 1);
                if (kept != NULL) {
                    memcpy(kept, PRELOAD_VAR "=", sizeof PRELOAD_VAR);
                    strcpy(kept + sizeof PRELOAD_VAR, rest);
                    *e = kept;
                }
            }
        }
        ++e;
    }
}

static size_t round_up(size_t n, size_t page) { return (n + page - 1) / page * page; }

/* The usual case, one long argument and the last: its text is mapped from `fd`, not copied (a
 * bot that reads little of it pays for little), and the other arguments are copied to end just
 * where it begins. 0, or -1 when it could not be done. */
static int map_as_last(int argc, char** argv, int fd) {
    struct stat st;
    if (fstat(fd, &st) != 0 || st.st_size <= 0) return -1;
    const size_t page = (size_t)sysconf(_SC_PAGESIZE), size = (size_t)st.st_size;
    size_t before = 0;
    for (int i = 0; i < argc - 1; ++i) before += strlen(argv[i]) + 1;
    /* Past the text, the rest of its page reads as zeros; a text that fills its last page gets
     * an anonymous page after it for its NUL. */
    const size_t head = round_up(before, page), body = round_up(size + 1, page);
    char* region = mmap(NULL, head + body, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (region == MAP_FAILED) return -1;
    if (mmap(region + head, round_up(size, page), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_FIXED, fd, 0) ==
        MAP_FAILED) {
        munmap(region, head + body);
        return -1;
    }
    lseek(fd, 0, SEEK_END); /* taken, as a read to the end would say */
    char* at = region + head - before;
    for (int i = 0; i < argc - 1; ++i) {
        size_t n = strlen(argv[i]) + 1;
        memcpy(at, argv[i], n);
        argv[i] = at;
        at += n;
    }
    argv[argc - 1] = region + head;
    return 0;
}

/* Any other case: each text read, then all arguments copied into one block. */
static void read_and_copy(int argc, char** argv, const int* fds) {
    char* text[argc];
    size_t length[argc];
    size_t total = 0;
    for (int i = 0; i < argc; ++i) {
        text[i] = fds[i] >= 0 ? read_all(fds[i], &length[i]) : NULL;
        if (text[i] == NULL) length[i] = strlen(argv[i]);
        total += length[i] + 1;
    }
    char* block = malloc(total);
    if (block == NULL) return;
    char* at = block;
    for (int i = 0; i < argc; ++i) {
        memcpy(at, text[i] != NULL ? text[i] : argv[i], length[i]);
        at[length[i]] = '\0';
        argv[i] = at;
        at += length[i] + 1;
        free(text[i]);
    }
}

/* glibc calls it with main()'s arguments; envp is the array `environ` points at. The arguments
 * end up in one block, one after the other as the kernel lays them out: programs that reuse
 * argv's memory for a process title (libuv, Ruby) measure it from the first to the last. */
__attribute__((constructor)) static void take_long_arguments(int argc, char** argv, char** envp) {
    const char* spec = find_var(envp, GOL_LONG_ARGUMENTS_VAR);
    if (spec == NULL || argc <= 0) return;
    int fds[argc]; /* per argument: the descriptor its text comes from, or -1 */
    int longs = 0, last = -1;
    for (int i = 0; i < argc; ++i) fds[i] = -1;
    while (*spec != '\0') {
        char* end;
        long back = strtol(spec, &end, 10);
        if (*end != ':') break;
        long fd = strtol(end + 1, &end, 10);
        if (*end != ',' && *end != '\0') break;
        spec = *end == ',' ? end + 1 : end;
        if (fd < 0 || fd > 1 << 20) continue;
        long index = back >= 0 && back < argc ? argc - 1 - back : -1;
        if (index > 0 && fds[index] < 0 && strcmp(argv[index], GOL_LONG_ARGUMENT_PLACEHOLDER) == 0) {
            fds[index] = (int)fd;
            ++longs;
            last = (int)index;
        } else {
            close((int)fd);
        }
    }
    clean_environment(envp);
    if (longs == 0) return;
    if (longs > 1 || last != argc - 1 || map_as_last(argc, argv, fds[last]) != 0) read_and_copy(argc, argv, fds);
    for (int i = 0; i < argc; ++i)
        if (fds[i] >= 0) close(fds[i]);
}

/* ---- In the bot: passing an over-long argument on ---- */

/* What an exec call sends instead of its own vectors. Everything is on pages of its own
 * (mmap), not the heap: exec is often called in a vfork child, which shares the parent's heap. */
struct rewritten {
    char** argv;
    char** envp;
    int* fds;
    size_t fd_count;
    void* block;
    size_t block_size;
};

static int too_long(const char* arg) { return strnlen(arg, GOL_MAX_ARGUMENT_BYTES) >= GOL_MAX_ARGUMENT_BYTES; }

static void release(struct rewritten* r) {
    for (size_t i = 0; i < r->fd_count; ++i) close(r->fds[i]);
    munmap(r->block, r->block_size);
}

/* After a failure (an exec that returned, or a rewrite that could not finish): the descriptors
 * and pages go, errno kept. */
static int failed(struct rewritten* r) {
    int saved = errno;
    release(r);
    errno = saved;
    return -1;
}

static int write_all(int fd, const char* data, size_t size) {
    while (size > 0) {
        ssize_t n = write(fd, data, size);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return -1;
        data += n;
        size -= (size_t)n;
    }
    return 0;
}

static char* append_number(char* at, long value) {
    char digits[24];
    int n = 0;
    do digits[n++] = (char)('0' + value % 10);
    while ((value /= 10) > 0);
    while (n > 0) *at++ = digits[--n];
    return at;
}

/* bash exports `_`, the last argument of the command before, to each program it starts: after a
 * command given the board, one environment string over the limit, which execve refuses. It only
 * says what ran last, so it is dropped rather than carried. */
static int dropped(const char* entry) { return entry[0] == '_' && entry[1] == '=' && too_long(entry); }

/* 0: nothing is too long, call through unchanged; 1: `r` holds the vectors to use instead;
 * -1: failed, errno set. */
static int rewrite(char* const argv[], char* const envp[], struct rewritten* r) {
    size_t argc = count(argv), envc = count(envp), longs = 0, drops = 0;
    for (size_t i = 0; i < argc; ++i) longs += too_long(argv[i]);
    for (size_t i = 0; i < envc; ++i) drops += dropped(envp[i]);
    if (longs == 0 && drops == 0) return 0;
    const char* self = longs ? self_path() : "";
    if (self == NULL) {
        errno = E2BIG;
        return -1;
    }
    const char* preload = find_var(envp, PRELOAD_VAR);
    size_t preload_size = sizeof PRELOAD_VAR + strlen(self) + (preload ? 1 + strlen(preload) : 0) + 1;
    size_t spec_size = sizeof GOL_LONG_ARGUMENTS_VAR + longs * 48 + 1;
    size_t size = (argc + 1 + envc + 3) * sizeof(char*) + longs * sizeof(int) + preload_size + spec_size;
    void* block = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (block == MAP_FAILED) return -1;
    *r = (struct rewritten){.argv = block, .block = block, .block_size = size};
    r->envp = r->argv + argc + 1;
    r->fds = (int*)(r->envp + envc + 3);
    char* preload_var = (char*)(r->fds + longs);
    char* spec = preload_var + preload_size;

    char* at = spec;
    memcpy(at, GOL_LONG_ARGUMENTS_VAR "=", sizeof GOL_LONG_ARGUMENTS_VAR);
    at += sizeof GOL_LONG_ARGUMENTS_VAR;
    for (size_t i = 0; i < argc; ++i) {
        r->argv[i] = argv[i];
        if (!too_long(argv[i])) continue;
        /* No close-on-exec: the program exec starts must inherit it. */
        int fd = memfd_create("gol-long-argument", 0);
        if (fd < 0) return failed(r);
        r->fds[r->fd_count++] = fd;
        if (write_all(fd, argv[i], strlen(argv[i])) != 0 || lseek(fd, 0, SEEK_SET) != 0) return failed(r);
        r->argv[i] = GOL_LONG_ARGUMENT_PLACEHOLDER;
        if (at != spec + sizeof GOL_LONG_ARGUMENTS_VAR) *at++ = ',';
        at = append_number(at, (long)(argc - 1 - i));
        *at++ = ':';
        at = append_number(at, fd);
    }
    *at = '\0';
    r->argv[argc] = NULL;

    at = preload_var;
    memcpy(at, PRELOAD_VAR "=", sizeof PRELOAD_VAR);
    at = stpcpy(at + sizeof PRELOAD_VAR, self);
    if (preload != NULL) {
        *at++ = ':';
        strcpy(at, preload);
    }
    size_t out = 0;
    if (longs) {
        r->envp[out++] = preload_var;
        r->envp[out++] = spec;
    }
    for (size_t i = 0; i < envc; ++i)
        if (!dropped(envp[i]) && (!longs || (strncmp(envp[i], PRELOAD_VAR "=", sizeof PRELOAD_VAR) != 0 &&
                                             strncmp(envp[i], GOL_LONG_ARGUMENTS_VAR "=", sizeof GOL_LONG_ARGUMENTS_VAR) != 0)))
            r->envp[out++] = envp[i];
    r->envp[out] = NULL;
    return 1;
}

#define REAL(name) ((__typeof__(&name))dlsym(RTLD_NEXT, #name))

/* Each exec calls the real one with its own vectors, or with the rewritten ones. */
#define EXEC_THROUGH(name, first)                                          \
    struct rewritten r;                                                     \
    int how = rewrite(argv, envp, &r);                                      \
    if (how == 0) return REAL(name)(first, argv, envp);                     \
    if (how < 0) return -1;                                                 \
    REAL(name)(first, r.argv, r.envp);                                      \
    return failed(&r);

int execve(const char* path, char* const argv[], char* const envp[]) { EXEC_THROUGH(execve, path) }
int execvpe(const char* file, char* const argv[], char* const envp[]) { EXEC_THROUGH(execvpe, file) }
int fexecve(int fd, char* const argv[], char* const envp[]) { EXEC_THROUGH(fexecve, fd) }

/* glibc's own exec functions call its internal execve, not this one: each is wrapped. */
int execv(const char* path, char* const argv[]) { return execve(path, argv, environ); }
int execvp(const char* file, char* const argv[]) { return execvpe(file, argv, environ); }

/* The list forms, gathered into a vector (the list ends with a null pointer). */
#define GATHER(first, args, rest)                          \
    size_t n_ = 1;                                         \
    va_start(rest, first);                                 \
    while (va_arg(rest, char*) != NULL) ++n_;              \
    va_end(rest);                                          \
    char* args[n_ + 1];                                    \
    args[0] = (char*)(first);                              \
    va_start(rest, first);                                 \
    for (size_t i_ = 1; i_ <= n_; ++i_) args[i_] = va_arg(rest, char*);

int execl(const char* path, const char* arg, ...) {
    va_list ap;
    GATHER(arg, args, ap)
    va_end(ap);
    return execve(path, args, environ);
}

int execlp(const char* file, const char* arg, ...) {
    va_list ap;
    GATHER(arg, args, ap)
    va_end(ap);
    return execvpe(file, args, environ);
}

int execle(const char* path, const char* arg, ...) {
    va_list ap;
    GATHER(arg, args, ap)
    char* const* envp = va_arg(ap, char* const*);
    va_end(ap);
    return execve(path, args, envp);
}

/* posix_spawn returns an error number rather than setting errno. */
#define SPAWN_THROUGH(name, first)                                               \
    struct rewritten r;                                                           \
    int how = rewrite(argv, envp, &r);                                            \
    if (how == 0) return REAL(name)(pid, first, actions, attr, argv, envp);       \
    if (how < 0) return errno;                                                    \
    int result = REAL(name)(pid, first, actions, attr, r.argv, r.envp);           \
    release(&r); /* the child has its own copies of the descriptors */           \
    return result;

int posix_spawn(pid_t* pid, const char* path, const posix_spawn_file_actions_t* actions,
                const posix_spawnattr_t* attr, char* const argv[], char* const envp[]) {
    SPAWN_THROUGH(posix_spawn, path)
}

int posix_spawnp(pid_t* pid, const char* file, const posix_spawn_file_actions_t* actions,
                 const posix_spawnattr_t* attr, char* const argv[], char* const envp[]) {
    SPAWN_THROUGH(posix_spawnp, file)
}
