# A persistent bot that spends 2 s of CPU time on each move before it replies: over a CPU limit
# of 1 s per move, though within a generous time limit. Its argument marks its command line.
import sys
import time

for line in sys.stdin:
    start = time.process_time()
    while time.process_time() - start < 2.0:
        pass
    print("[]", flush=True)
