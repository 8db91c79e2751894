# A persistent bot that on its first move leaves three processes spinning for ever, to take
# the CPU from its opponent: a child, an orphan (its parent exits) and a child in a session of
# its own. Each has CPU_MARKER in its command line. It replies once all three run.
# From its second move on it checks that its two children were stopped between its moves:
# waitpid reports a child continued only if it was stopped. If not, it replies with garbage,
# which forfeits the move.
import os
import sys
import time

MARKER = "CPU_MARKER"


def spin(tag):
    os.execvp("sh", ["sh", "-c", "while :; do :; done", MARKER + "-" + tag])


def spinning():
    count = 0
    for pid in os.listdir("/proc"):
        try:
            with open("/proc/" + pid + "/cmdline", "rb") as f:
                count += MARKER.encode() in f.read()
        except OSError:
            pass
    return count


def continued(pid):
    got, status = os.waitpid(pid, os.WCONTINUED | os.WNOHANG)
    return got == pid and os.WIFCONTINUED(status)


children = []
for n, line in enumerate(sys.stdin):
    if n == 0:
        child = os.fork()
        if child == 0:
            spin("child")
        middle = os.fork()
        if middle == 0:
            if os.fork() == 0:
                spin("orphan")
            os._exit(0)
        os.waitpid(middle, 0)
        session = os.fork()
        if session == 0:
            os.setsid()
            spin("session")
        children = [child, session]
        while spinning() < 3:
            time.sleep(0.001)
    elif not all(continued(pid) for pid in children):
        print("not frozen", flush=True)
        continue
    print("[]", flush=True)
