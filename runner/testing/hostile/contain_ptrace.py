# Looks for the runner up its chain of parents in /proc (the host's, which numbers processes as
# the runner does), then tries to ptrace it, signal it and open its memory. Writes
# "RUNNER_PID PTRACE_ERRNO KILL_ERRNO MEM_ERRNO" (0: it worked) to ptrace_attempts.txt in its
# folder, and replies [] only if it could neither stop nor signal the runner.
import ctypes
import os

PTRACE_ATTACH, PTRACE_DETACH = 16, 17


def parent(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("PPid:"):
                return int(line.split()[1])
    return 0


def is_runner(pid):
    with open(f"/proc/{pid}/cmdline", "rb") as f:
        args = f.read().split(b"\0")
    return args[0].endswith(b"/runner") and b"duel" in args


runner = int(os.readlink("/proc/self"))
while runner > 1 and not is_runner(runner):
    runner = parent(runner)

libc = ctypes.CDLL(None, use_errno=True)
ptrace_errno = 0
if libc.ptrace(ctypes.c_long(PTRACE_ATTACH), ctypes.c_long(runner), None, None) != 0:
    ptrace_errno = ctypes.get_errno()
else:
    os.waitpid(runner, 0x40000000)  # __WALL: until it has stopped, then let it go
    libc.ptrace(ctypes.c_long(PTRACE_DETACH), ctypes.c_long(runner), None, None)
kill_errno = 0
try:
    os.kill(runner, 0)
except OSError as e:
    kill_errno = e.errno
mem_errno = 0
try:
    open(f"/proc/{runner}/mem", "rb").close()
except OSError as e:
    mem_errno = e.errno

with open("ptrace_attempts.txt", "w") as f:
    f.write(f"{runner} {ptrace_errno} {kill_errno} {mem_errno}\n")
print("[]" if ptrace_errno and kill_errno else "attached to the runner")
