# A persistent bot that forgets to flush: on a pipe Python buffers stdout, so its reply lines
# stay in the buffer and every move times out.
import sys

for line in sys.stdin:
    print("[]")
