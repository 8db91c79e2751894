# A warm python3 for one bot's game (issue 16): started once by the bot's launcher (launcher.c),
# it imports what bots commonly use, then for each move forks a process that runs the bot's file
# as `python3 bot.py BOARD` would. Usage, by the launcher only: python3 -I warm_python.py, with its
# socket to the launcher as descriptor 3 and the environment a move gets. -I (isolated): HOME is
# the bot's writable scratch folder, and a .pth file a bot left in its user site-packages would
# run here, before any move's clock (issue 39); so no user site-packages, no PYTHON* variables.
#
# The launcher forwards each request as it got it, and SPARE after each move, once it has ended
# the move's processes: the process for the next move is forked then, and reads the next request
# itself (fork_spare). The requests and the replies (READY, STARTED or FAILED, ENDED) are
# launch_protocol.h's. A move that ends with status 0 also tells the launcher itself (DONE,
# launcher.c), which then reports the end at once and reads ENDED later.
#
# The bot runs in the same uid and namespace as this process, so this process keeps nothing a
# move could use: it is not dumpable (no ptrace, no /proc/PID/mem), its socket is closed in the
# move, its signals are blocked (a stray SIGINT or SIGTERM from a bot does not end it; the
# launcher continues it after each move in case of SIGSTOP, and starts a new one if it dies).
#
# A move's cost is mostly the kernel's: a forked python3 copies each page it writes, and a page
# cost 1.5 to 2.8 microseconds on the VM this was measured on. So this process and its spares
# run as little Python of their own as they can (the C modules _socket and _signal rather than
# their wrappers, no rehearsal of a move), and this process checks the bot's file between moves,
# when no move shares its pages.
import os
import sys

STARTUP_MODULES = frozenset(sys.modules)

import _signal
import _socket
import atexit
import ctypes
import gc
import resource
import stat
import struct
import types
import warnings

# What bots commonly import. A bot's own file of the same name as one of these still wins, as it
# would in a cold start (shadowed_modules).
import bisect, collections, copy, functools, heapq, itertools, json, math, operator  # noqa: E401
import random, re, string, time  # noqa: E401

PRELOADED = frozenset(sys.modules) - STARTUP_MODULES

# @LAUNCH_PROTOCOL@
# A request's descriptors arrive close-on-exec, as a move's own must be.
FDS_SPACE = _socket.CMSG_SPACE(MAX_FDS * 4)
RECEIVE_FLAGS = _socket.MSG_CMSG_CLOEXEC | _socket.MSG_WAITALL
PR_SET_DUMPABLE = 4
DONE = _signal.SIGUSR1  # a move to the launcher: it has ended with status 0 (finish())

prctl = ctypes.CDLL(None, use_errno=True).prctl
prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong]
prctl.restype = ctypes.c_int


def receive(sock):
    """One request: its header fields, descriptors and strings; None at end of file."""
    head, ancillary, _, _ = sock.recvmsg(REQUEST.size, FDS_SPACE, RECEIVE_FLAGS)
    fds = []
    for _, _, data in ancillary:  # SCM_RIGHTS, the only kind sent here
        fds += memoryview(data)[:len(data) & ~3].cast("i").tolist()
    if 0 < len(head) < REQUEST.size:
        head += sock.recv(REQUEST.size - len(head), _socket.MSG_WAITALL)
    if len(head) != REQUEST.size:
        return None
    fields = REQUEST.unpack(head)
    size = fields[REQUEST_STRINGS_BYTES]
    strings = sock.recv(size, _socket.MSG_WAITALL) if size else b""
    if len(strings) != size:
        return None
    return fields, fds, strings.split(b"\0")[:-1]


def shadowed_modules(bot_dir):
    """Preloaded modules that a file in the bot's folder would replace in a cold start."""
    try:
        names = os.listdir(bot_dir)
    except OSError:
        return []
    own = set()
    for name in names:
        base, _, ext = name.partition(".")
        if ext in ("py", "pyc") or ext.endswith("so") or (not ext and os.path.isdir(os.path.join(bot_dir, name))):
            own.add(base)
    return [m for m in PRELOADED if m.partition(".")[0] in own]


def exit_code(code):
    """SystemExit's code as python3 turns it into an exit status."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    try:
        sys.stderr.write(str(code) + "\n")
    except Exception:
        pass
    return 1


def script_path(script):
    """The bot's file as python3 makes __file__ of it: the working directory joined, unnormalised."""
    return script if os.path.isabs(script) else os.getcwd() + "/" + script


class NotRegular(OSError):
    """The bot's file is there but is not a regular file: what it is instead."""


KINDS = ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a character device"),
         (stat.S_ISBLK, "a block device"), (stat.S_ISDIR, "a folder"))


def read_source(path):
    """The bot's file's bytes, opened without waiting and read only when it is a regular file: a
    FIFO put in its place (where a bot may write its folder) would block this process for ever,
    between moves, outside any time limit. NotRegular when it is something else."""
    with open(os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC), "rb") as f:
        mode = os.fstat(f.fileno()).st_mode
        if not stat.S_ISREG(mode):
            raise NotRegular("it is %s, not a regular file" % next((k for test, k in KINDS if test(mode)), "no file"))
        return f.read()


def read_only(*paths):
    """Whether every path is on a read-only mount (the sandbox's copy of a bot), where nothing
    can change it during the game."""
    try:
        return all(os.statvfs(path).f_flag & os.ST_RDONLY for path in paths)
    except OSError:
        return False


# path: (source, code, the folder's realpath, its mtime, the modules its files shadow, whether
# file and folder are read-only). A bot's file is compiled once per game, not in every move; its
# folder is listed again when it changes.
prepared = {}


def prepare(path):
    """(code, folder, shadowed modules, read-only) for the file, computed here when it reads and
    compiles without a word on stderr; None leaves it to the move, which then says what python3
    would."""
    try:
        source = read_source(path)
        folder = os.path.dirname(os.path.realpath(path))
        mtime = os.stat(folder).st_mtime_ns
    except OSError:
        return None
    hit = prepared.get(path)
    if hit is None or hit[0] != source or hit[2] != folder:
        with warnings.catch_warnings(record=True) as said:
            warnings.simplefilter("always")
            try:
                code = compile(source, path, "exec", dont_inherit=True)
            except Exception:
                return None
        if said:
            return None
        hit = (source, code, folder, None, None, read_only(path, folder))
    if hit[3] != mtime:
        hit = hit[:3] + (mtime, shadowed_modules(folder), hit[5])
    prepared[path] = hit
    return hit[1], hit[2], hit[4], hit[5]


def run_bot(argv, program_name, ready):
    """Runs argv[0] (the bot's file) as __main__ and exits as python3 would. `ready`: prepare()'s."""
    path = script_path(argv[0])
    if ready is None:
        try:
            source = read_source(path)
        except NotRegular as e:
            # python3 itself would wait for a writer; a move that cannot run says why instead.
            sys.stderr.write("%s: can't open file %r: %s\n" % (program_name, path, e))
            os._exit(2)
        except OSError as e:
            sys.stderr.write("%s: can't open file %r: [Errno %d] %s\n" % (program_name, path, e.errno, e.strerror))
            os._exit(2)
        bot_dir = os.path.dirname(os.path.realpath(path))
        code, shadowed = None, shadowed_modules(bot_dir)
    else:
        code, bot_dir, shadowed, _ = ready
    for name in shadowed:
        sys.modules.pop(name, None)
    sys.argv = list(argv)
    # Isolated, this process has no script folder first on its path: the bot's goes in front.
    sys.path.insert(0, bot_dir)
    main = types.ModuleType("__main__")
    main.__file__ = path
    main.__cached__ = None
    main.__loader__ = __loader__.__class__("__main__", path)
    main.__builtins__ = __builtins__
    main.__annotations__ = {}
    sys.modules["__main__"] = main
    status = 0
    try:
        if code is None:
            code = compile(source, path, "exec", dont_inherit=True)
        exec(code, main.__dict__)
    except SystemExit as e:
        status = exit_code(e.code)
    except BaseException as e:
        # The first frame is this function's: the bot's traceback starts below it.
        tb = e.__traceback__.tb_next if e.__traceback__ is not None else None
        sys.excepthook(type(e), e.with_traceback(tb), tb)
        status = 1
        if isinstance(e, KeyboardInterrupt):
            status = -_signal.SIGINT
    finish(status)


def finish(status):
    """Python's own ending: wait for threads, run atexit handlers, flush, exit."""
    threading = sys.modules.get("threading")
    try:
        if threading is not None:
            threading._shutdown()
    except BaseException as e:
        sys.excepthook(type(e), e, e.__traceback__)
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except Exception:
            status = 120 if status == 0 else status
    if status < 0:
        # An uncaught KeyboardInterrupt ends python3 by the signal itself.
        _signal.signal(-status, _signal.SIG_DFL)
        _signal.pthread_sigmask(_signal.SIG_SETMASK, [])
        os.kill(os.getpid(), -status)
        status = 1
    if status == 0:
        # Done, with nothing more to say: the output closed and the launcher (process 1) told, so
        # that the move ends now rather than after the kernel has unmapped this process (a forked
        # python3's largest cost) and this interpreter has said so. Any other status is reported
        # by the process's end itself.
        os.close(1)
        os.close(2)
        os.kill(1, DONE)
    os._exit(status)


def become_move(sock, fields, fds, strings, ready):
    """In the move's process: the launcher's start_move, then the bot."""
    try:
        set_up(sock, fields, fds, strings)
    except Exception as e:
        # As the launcher reports a failed start (the runner's "could not start").
        os.write(2, ("could not start the move in the warm python3: %s\n" % e).encode())
        os._exit(127)
    argv = [os.fsdecode(a) for a in strings[2:2 + fields[REQUEST_ARGC]]]
    # As python3 saw its command line when it started (its program may have been a wrapper that
    # exec'd it, as pyenv's shims do): the place of -I and this script is the bot's.
    sys.orig_argv = sys.orig_argv[:-2] + argv[1:]
    run_bot(argv[1:], sys.orig_argv[0], ready)


def set_up(sock, fields, fds, strings):
    flags, argc, envc = fields[REQUEST_FLAGS], fields[REQUEST_ARGC], fields[REQUEST_ENVC]
    limits = fields[REQUEST_ADDRESS_SPACE:REQUEST_PROCESSES + 1]
    cwd = strings[0]
    env = strings[2 + argc:2 + argc + envc]
    sock.close()
    stdin = fds[2] if flags & STDIN_FLAG else os.open("/dev/null", os.O_RDONLY)
    os.dup2(stdin, 0)
    os.dup2(fds[0], 1)
    os.dup2(fds[1], 2)
    os.closerange(3, resource.getrlimit(resource.RLIMIT_NOFILE)[0])
    if cwd:
        os.chdir(cwd)
    names = (resource.RLIMIT_AS, resource.RLIMIT_CPU, resource.RLIMIT_FSIZE, resource.RLIMIT_NOFILE,
             resource.RLIMIT_NPROC)
    for number, value in zip(names, limits):
        if value == 0 or (number == resource.RLIMIT_NPROC and not flags & NPROC_FLAG):
            continue
        # CPU: the soft limit sends SIGXCPU, which names the cause; the hard one a second later kills.
        resource.setrlimit(number, (value, value + 1 if number == resource.RLIMIT_CPU else value))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    # The interpreter was started with the first request's environment, as a cold start of the
    # move would be: what python3 has then (a wrapper such as pyenv's may have changed it) is what
    # the move gets. (None: this is the first request.) Another environment is set as it is.
    if started_with is not None and env != started_with:
        os.environ.clear()
        os.environb.update(entry.partition(b"=")[::2] for entry in env)
    _signal.pthread_sigmask(_signal.SIG_SETMASK, [])


def prepare_request(cwd, file):
    """prepare() of a request's file, from where the move will be (so that the path is the one
    the move makes of it)."""
    try:
        if cwd:
            os.chdir(cwd)
        return prepare(script_path(os.fsdecode(file))) if file else None
    except OSError:
        return None


def fork_spare(sock, last, ready):
    """The process for the next move, forked ahead (the fork's cost, and Python's own work
    after one, are paid between moves): it reads the launcher's next request itself, tells the
    launcher it started (so it runs nothing before that), tells this process through a pipe
    which file it runs and, in the first move, with what environment, then becomes the move.
    `ready` is prepare_request's for `last`, (cwd, file) of the last request: the same in every
    move of a game. While it waits it takes a session of its own (nothing of a move is left to
    see it then). (pid, the pipe's read end); OSError when it cannot be forked."""
    told, tell = os.pipe()
    try:
        pid = os.fork()
    except OSError:
        os.close(told)
        os.close(tell)
        raise
    if pid == 0:
        try:
            os.close(told)
            os.setsid()
            # Dumpable again, as a process that python3 execs is. No process of the bot's is alive
            # while a spare waits (the launcher asks for one once it has ended the last move's).
            prctl(PR_SET_DUMPABLE, 1, 0, 0, 0)
            request = receive(sock)
            if request is None:
                os._exit(0)
            fields, fds, strings = request
            # The move runs once it has the request, not before; its time is the launcher's to count.
            sock.sendall(REPLY.pack(STARTED, os.getpid(), 0))
            argc, envc = fields[REQUEST_ARGC], fields[REQUEST_ENVC]
            here = (strings[0], strings[3]) if argc > 1 else (b"", b"")
            # The environment only while this process has none to compare with: a pipe holds 64 KiB
            # unread, and later moves' are read once they have ended (serve).
            env = strings[2 + argc:2 + argc + envc] if started_with is None else []
            os.write(tell, b"\0".join([*here, *env]))
            os.close(tell)
            if here != last:
                ready = prepare_request(*here)
            become_move(sock, fields, fds, strings, ready)
        finally:
            os._exit(127)
    os.close(tell)
    return pid, told


# The environment of the first request, which the launcher started this process with.
started_with = None


def read_all(fd):
    with open(fd, "rb") as f:
        return f.read()


def serve(sock):
    global started_with
    last = None  # (cwd, file) of the last request
    ready = None
    while True:
        try:
            move, told = fork_spare(sock, last, ready)
        except OSError as e:
            # No process for it: the request is answered here.
            request = receive(sock)
            if request is None:
                os._exit(0)
            for fd in request[1]:
                os.close(fd)
            if request[0][REQUEST_KIND] != SPARE:
                sock.sendall(REPLY.pack(FAILED, e.errno or 1, 0))
            continue
        # The spare says what it runs once it has its request; nothing, if the runner has gone
        # (end of file on the launcher's socket). Read after the move has ended, not woken in it,
        # but for the first move's, which may not fit the pipe.
        said = read_all(told) if started_with is None else None
        status, cpu = 0, 0
        if said != b"":
            _, status, usage = os.wait4(move, 0)  # retried on EINTR by Python itself (PEP 475)
            cpu = round((usage.ru_utime + usage.ru_stime) * 1e6)
        if said is None:
            said = read_all(told)
        if not said:
            os._exit(0)
        cwd, file, *env = said.split(b"\0")
        if started_with is None:
            started_with = env
        # After a DONE the launcher has reported the move's end already, and reads this after.
        sock.sendall(REPLY.pack(ENDED, status, cpu))
        # The bot's file read again, compiled if it changed, for the next spare: here, with the
        # move gone, a page written is this process's own again rather than a copy. Not when it
        # is read-only, file and folder, as a sandboxed bot's are: it cannot have changed, and
        # each page this process writes between moves is a fault (issue 39: reading it again
        # took 1.1-1.6 ms a move on a machine where a fault costs 13-18 microseconds).
        if (cwd, file) != last or ready is None or not ready[3]:
            last = (cwd, file)
            ready = prepare_request(cwd, file)
        # The launcher says when the move's processes are gone: only then the next spare.
        request = receive(sock)
        if request is None:
            os._exit(0)
        for fd in request[1]:
            os.close(fd)


def main():
    sock = _socket.socket(fileno=CONTROL_FD)
    os.set_inheritable(CONTROL_FD, False)
    if prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0:
        os._exit(127)
    _signal.pthread_sigmask(_signal.SIG_BLOCK, _signal.valid_signals())
    # What is loaded now stays out of the collector's way: a move's collections do not walk it,
    # so its pages stay shared with this process instead of being copied into each move.
    gc.freeze()
    sock.sendall(REPLY.pack(READY, os.getpid(), 0))
    serve(sock)


if __name__ == "__main__":
    main()
