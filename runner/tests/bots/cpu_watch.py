# Passes, and on each move records every process whose command line holds CPU_MARKER: the
# argument holding it and the process's state letter (from /proc/PID/stat), one line each,
# in cpu_watch_states.txt beside it.
import os

MARKER = b"CPU_MARKER"
seen = []
for pid in os.listdir("/proc"):
    try:
        with open("/proc/" + pid + "/cmdline", "rb") as f:
            tagged = [arg for arg in f.read().split(b"\0") if MARKER in arg]
        if not tagged:
            continue
        with open("/proc/" + pid + "/stat") as f:
            state = f.read().rsplit(")", 1)[1].split()[0]
        seen.append(tagged[0].decode() + " " + state + "\n")
    except OSError:
        pass
with open("cpu_watch_states.txt", "a") as out:
    out.writelines(seen)
print("[]")
