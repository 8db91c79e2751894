# Keeps its state in a file beside itself: fine on a contestant's machine, refused in the
# sandbox, where a bot's own files are read-only and only $GOL_SCRATCH is writable.
import os
import sys

with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "state.txt"), "w") as state:
    state.write(sys.argv[1][:40])
print("[]")
