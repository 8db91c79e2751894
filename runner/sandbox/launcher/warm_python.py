# A warm python3 for one bot's game (issue 16): started once by the bot's launcher (launcher.c),
# it imports what bots commonly use, then for each move forks a process that runs the bot's file
# as `python3 bot.py BOARD` would. Usage, by the launcher only: python3 -I warm_python.py, with its
# socket to the launcher as descriptor 3 and the environment a move gets. -I (isolated): HOME is
# the bot's writable scratch folder, and a .pth file a bot left in its user site-packages would
# run here, before any move's clock (issue 39); so no user site-packages, no PYTHON* variables.
#
# The launcher forwards each request as it got it, once it has ended the last move's processes.
# This process reads it, sets what python3 would set before running the bot (its argv, path and
# __main__), and forks the move, which says STARTED, sets itself up and runs the bot (serve). The
# requests and the replies (READY, STARTED or FAILED, ENDED) are launch_protocol.h's. A move that
# ends with status 0 also tells the launcher itself (GOL_LAUNCH_DONE, warm_move.c), which then
# reports the end at once and reads ENDED later.
#
# The bot runs in the same uid and namespace as this process, so this process keeps nothing a
# move could use: it is not dumpable (no ptrace, no /proc/PID/mem), its socket is closed in the
# move, its signals are blocked (a stray SIGINT or SIGTERM from a bot does not end it; the
# launcher continues it after each move in case of SIGSTOP, and starts a new one if it dies).
#
# A move's cost is mostly the kernel's: a forked python3 copies each page it writes, about 3
# microseconds a page on the VM this was measured on, where a page this process writes while no
# move shares it costs about 1. So the work of a move that is not the bot's own is done here,
# before the fork, the bot's file is checked between moves, and both run as little Python as they
# can (the C modules _socket and _signal rather than their wrappers, nothing made twice; the fork,
# the move's set-up and this process's wait for it one call into C, warm_move.c).
import os
import sys

STARTUP_MODULES = frozenset(sys.modules)

import _signal
import _socket
import atexit
import ctypes
import gc
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
# A request's descriptors as ints, by how many came.
FDS = [struct.Struct("=%di" % count) for count in range(MAX_FDS + 1)]
RECEIVE_FLAGS = _socket.MSG_CMSG_CLOEXEC | _socket.MSG_WAITALL
FS_ENCODING, FS_ERRORS = sys.getfilesystemencoding(), sys.getfilesystemencodeerrors()
ORIG_ARGV = sys.orig_argv
PR_SET_DUMPABLE = 4
M_TRIM_THRESHOLD = -1

prctl = ctypes.CDLL(None).prctl
prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong]
# A warm move in C (warm_move.c), from this script's folder: a PyDLL, whose calls keep the GIL, as
# the fork in it needs (os.fork's own steps, which it calls, run Python's at-fork functions).
WARM_MOVE = ctypes.PyDLL(os.path.join(os.path.dirname(os.path.realpath(__file__)), "gol-warm-move.so"), use_errno=True)
warm_python_move = WARM_MOVE.gol_warm_python_move
# os.fork's own steps, and the calls with which the move runs its Python and reads the status it
# returns (warm_move.c).
FORK_STEPS = tuple(ctypes.cast(getattr(ctypes.pythonapi, step), ctypes.c_void_p)
                   for step in ("PyOS_BeforeFork", "PyOS_AfterFork_Parent", "PyOS_AfterFork_Child", "PyObject_CallObject",
                                "PyLong_AsLong"))
NO_FDS = (-1,) * MAX_FDS


def receive(sock):
    """One request: its header as it came and its fields, its descriptors and strings
    (split_views); None at end of file."""
    head, ancillary, _, _ = sock.recvmsg(REQUEST.size, FDS_SPACE, RECEIVE_FLAGS)
    fds = []
    for _, _, data in ancillary:  # SCM_RIGHTS, the only kind sent here
        fds += FDS[len(data) // 4].unpack_from(data)
    if 0 < len(head) < REQUEST.size:
        head += sock.recv(REQUEST.size - len(head), _socket.MSG_WAITALL)
    if len(head) != REQUEST.size:
        return None
    fields = REQUEST.unpack(head)
    size = fields[REQUEST_STRINGS_BYTES]
    strings = sock.recv(size, _socket.MSG_WAITALL) if size else b""
    if len(strings) != size:
        return None
    return head, fields, fds, split_views(strings)


def split_views(strings):
    """A request's NUL-terminated strings, each a view of `strings` rather than a copy: a board is
    copied once more, into its str (serve)."""
    view, views, at = memoryview(strings), [], 0
    while (end := strings.find(b"\0", at)) >= 0:
        views.append(view[at:end])
        at = end + 1
    return views


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
# file and folder are read-only, its __main__). A bot's file is compiled once per game, not in
# every move; its folder is listed again when it changes.
prepared = {}


def main_module(path):
    """The module python3 runs a file as, before it runs. Made ahead by this process, a move gets
    its own copy with the fork: the bot's code runs in the move only."""
    main = types.ModuleType("__main__")
    main.__file__ = path
    main.__cached__ = None
    main.__loader__ = __loader__.__class__("__main__", path)
    main.__builtins__ = __builtins__
    main.__annotations__ = {}
    return main


def prepare(path):
    """(code, folder, shadowed modules, read-only, __main__) for the file, computed here when it
    reads and compiles without a word on stderr; None leaves it to the move, which then says what
    python3 would."""
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
        hit = (source, code, folder, None, None, read_only(path, folder), main_module(path))
    if hit[3] != mtime:
        hit = hit[:3] + (mtime, shadowed_modules(folder)) + hit[5:]
    prepared[path] = hit
    return hit[1:3] + hit[4:]


def run_bot(ready):
    """Runs sys.argv[0] (the bot's file) as __main__ and ends as python3 would: the exit status
    (finish). `ready`: prepare()'s, with which this process has python3's state already
    (python3_state)."""
    if ready is None:
        path = script_path(sys.argv[0])
        try:
            source = read_source(path)
        except NotRegular as e:
            # python3 itself would wait for a writer; a move that cannot run says why instead.
            sys.stderr.write("%s: can't open file %r: %s\n" % (sys.orig_argv[0], path, e))
            os._exit(2)
        except OSError as e:
            sys.stderr.write("%s: can't open file %r: [Errno %d] %s\n" % (sys.orig_argv[0], path, e.errno, e.strerror))
            os._exit(2)
        bot_dir = os.path.dirname(os.path.realpath(path))
        for name in shadowed_modules(bot_dir):
            sys.modules.pop(name, None)
        sys.path.insert(0, bot_dir)
        code, main = None, main_module(path)
        sys.modules["__main__"] = main
    else:
        code, main = ready[0], ready[4]
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
    return finish(status)


def finish(status):
    """Python's own ending: wait for threads, run atexit handlers, flush; the exit status, which
    warm_move.c exits with."""
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
    return status


def become_move(env, ready):
    """In the move's process, set up as the launcher's start_move sets up a move (warm_move.c):
    the environment unless it is the interpreter's own (move_env), then the bot; its exit status.
    The control socket's object keeps the number of a descriptor warm_move.c has closed: nothing
    here uses or closes it (the move ends in warm_move.c, by _exit), and making it forget would
    copy a page (issue 39)."""
    if env is not None:
        os.environ.clear()
        os.environb.update(entry.partition(b"=")[::2] for entry in env)
    return run_bot(ready)


def move_env(env, started_with):
    """The move's environment, or None when it is `started_with`, the one the interpreter was started
    with: a move with that one keeps what python3 made of it (a wrapper such as pyenv's may have
    changed it), as a cold start of the move would."""
    return None if env == started_with else [bytes(entry) for entry in env]


def prepare_request(cwd, file):
    """prepare() of a request's file, from where the move will be (so that the path is the one
    the move makes of it)."""
    try:
        if cwd:
            os.chdir(cwd)
        return prepare(script_path(os.fsdecode(file))) if file else None
    except OSError:
        return None


def python3_state(argv, ready):
    """What python3 sets before it runs the bot's file, set here for the move's fork to copy: made
    in this process, with no move alive, a page written costs a fault without a copy (issue 39).
    Nothing imports here before the move has ended and restore() has put this process's own argv,
    path and modules back. Returns restore."""
    own = sys.argv, sys.orig_argv, sys.path, sys.modules["__main__"]
    # As python3 saw its command line when it started (its program may have been a wrapper that
    # exec'd it, as pyenv's shims do): the place of -I and this script is the bot's.
    sys.orig_argv = ORIG_ARGV[:-2] + argv[1:]
    sys.argv = argv[1:]
    popped = {}
    if ready is not None:
        _, folder, shadowed, _, main = ready
        popped = {name: sys.modules.pop(name) for name in shadowed if name in sys.modules}
        # Isolated, python3 has no script folder first on its path: the bot's goes in front.
        sys.path = [folder, *own[2]]
        sys.modules["__main__"] = main

    def restore():
        sys.argv, sys.orig_argv, sys.path = own[:3]
        sys.modules.update(popped, __main__=own[3])
    return restore


def serve(sock):
    last = None  # (cwd, file) of the last request
    ready = None
    started_with = None  # the first request's environment, which the launcher started this process with
    this_move = None  # (environment, ready) for the move's process, which runs move_main

    def move_main():
        return become_move(*this_move)
    move_main_object = ctypes.py_object(move_main)
    while True:
        request = receive(sock)
        if request is None:
            os._exit(0)
        head, fields, fds, strings = request
        argc, envc = fields[REQUEST_ARGC], fields[REQUEST_ENVC]
        cwd = bytes(strings[0])
        here = (cwd, bytes(strings[3])) if argc > 1 else (b"", b"")
        if here != last:
            last = here
            ready = prepare_request(*here)
        env = strings[2 + argc:2 + argc + envc]
        if started_with is None:
            started_with = [bytes(entry) for entry in env]
        env = move_env(env, started_with)
        restore = python3_state([str(a, FS_ENCODING, FS_ERRORS) for a in strings[2:2 + argc]], ready)
        this_move = env, ready
        # Forks, the move's process running move_main; returns here once the move has ended and
        # ENDED is said (after a DONE, the launcher has reported the move's end already, and reads
        # ENDED after).
        move = warm_python_move(*FORK_STEPS, move_main_object, CONTROL_FD, head, cwd, *fds, *NO_FDS[len(fds):])
        restore()
        if move < 0:
            for fd in fds:
                os.close(fd)
            sock.sendall(REPLY.pack(FAILED, ctypes.get_errno() or 1, 0))
            continue
        # The bot's file read again, compiled if it changed, for the next move: here, between
        # moves. Not when it is read-only, file and folder, as a sandboxed bot's are: it cannot
        # have changed, and each page this process writes is a fault (issue 39: reading it again
        # took 1.1-1.6 ms a move on a machine where a fault costs 13-18 microseconds).
        if ready is None or not ready[3]:
            ready = prepare_request(*last)
        # This move's objects go before the next request's are made, which then take their places:
        # the free blocks the allocator has at each fork stay the same, where the last move's,
        # scattered, would be where the move's own allocations copy pages (issue 39: 10 fewer
        # faults a move, and 6 fewer here).
        del request, head, fields, fds, strings, cwd, here, env, restore, this_move


def warm_up():
    """What a bot's move commonly does first (the 2016 contest's: its imports, the board's JSON,
    random numbers, a deep copy, its reply printed), done here once with nothing a move sees (a
    Random of its own, the output to /dev/null): what that fills for good (the type attribute cache,
    interned names, json's objects) is then in every move's copy, where each move would make it again
    and copy a page for each (issue 39: a move of warm.d/parse_empty.py about 278 faults instead of
    297, of the 2016 RandomBot.py about 640 instead of 660)."""
    exec(compile("import random, copy\nimport sys, json\n", "<warm-up>", "exec"), {"__name__": "__warm_up__"})
    rng = random.Random(0)
    json.loads('{"y_size":3,"x_size":3,"board":{"(0,1)":1,"(2,2)":2},"bot_id":1,"tick_id":0}')
    reply = [[rng.randrange(3), rng.randrange(3)], copy.deepcopy(rng.choice([[0, 1], [1, 0]]))]
    with open(os.devnull, "w") as out:
        print(json.dumps(reply), file=out)
        out.flush()


def main():
    sock = _socket.socket(fileno=CONTROL_FD)
    os.set_inheritable(CONTROL_FD, False)
    if prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0:
        os._exit(127)
    _signal.pthread_sigmask(_signal.SIG_BLOCK, _signal.valid_signals())
    warm_up()
    # What is loaded now stays out of the collector's way: a move's collections do not walk it,
    # so its pages stay shared with this process instead of being copied into each move.
    gc.freeze()
    # The heap's free top is kept rather than given back to the kernel (glibc's M_TRIM_THRESHOLD,
    # 128 KiB by default): each move frees a board's worth, and taking it back is a fault per page
    # in this process and in the move. Not glibc (musl): no mallopt, and nothing to keep.
    try:
        ctypes.CDLL(None).mallopt(M_TRIM_THRESHOLD, 64 << 20)
    except AttributeError:
        pass
    sock.sendall(REPLY.pack(READY, os.getpid(), 0))
    serve(sock)


if __name__ == "__main__":
    main()
