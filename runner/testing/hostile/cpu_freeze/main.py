# A persistent bot that on its first move leaves three processes spinning for ever, to take
# the CPU from its opponent: a child, an orphan (its parent exits) and a child in a session of
# its own. Each has CPU_MARKER in its command line. It replies once all three run.
# From its second move on it checks that its three processes were stopped between its moves:
# together they took less than 0.1 s of CPU since its last reply (spinning through an
# opponent's move of 0.3 s or more, they would take it all). If not, it replies with garbage,
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


def spinners_cpu_ticks():
    ticks = 0
    for pid in os.listdir("/proc"):
        try:
            with open("/proc/" + pid + "/cmdline", "rb") as f:
                if MARKER.encode() not in f.read():
                    continue
            with open("/proc/" + pid + "/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            ticks += int(fields[11]) + int(fields[12])
        except (OSError, IndexError, ValueError):
            pass
    return ticks


TICKS = os.sysconf("SC_CLK_TCK")
last = 0
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
        while spinning() < 3:
            time.sleep(0.001)
    elif spinners_cpu_ticks() - last > TICKS // 10:
        print("not frozen", flush=True)
        continue
    last = spinners_cpu_ticks()
    print("[]", flush=True)
