# Passes, and on each move records every process whose command line holds CPU_MARKER: the
# argument holding it and the process's state letter (from /proc/PID/stat), one line each,
# in cpu_watch_states.txt beside it. A stop takes effect when its process next runs, so a
# process not yet stopped (T) is looked at again, napping between looks, for up to 0.5 s.
import os
import time

MARKER = b"CPU_MARKER"


def state(pid):
    with open("/proc/" + pid + "/stat") as f:
        return f.read().rsplit(")", 1)[1].split()[0]


seen = {}
for pid in os.listdir("/proc"):
    try:
        with open("/proc/" + pid + "/cmdline", "rb") as f:
            tagged = [arg for arg in f.read().split(b"\0") if MARKER in arg]
        if tagged:
            seen[pid] = [tagged[0].decode(), state(pid)]
    except OSError:
        pass
give_up = time.monotonic() + 0.5
while any(s != "T" for _, s in seen.values()) and time.monotonic() < give_up:
    time.sleep(0.001)
    for pid, entry in seen.items():
        try:
            entry[1] = state(pid)
        except OSError:
            pass
with open("cpu_watch_states.txt", "a") as out:
    out.writelines(tag + " " + s + "\n" for tag, s in seen.values())
print("[]")
