# Answers "[]" to each line, but on its third line misbehaves as its argument says:
# crash (exit 7), hang, or two (two reply lines).
import os
import sys
import time

mode = sys.argv[1] if len(sys.argv) > 1 else "crash"
for count, line in enumerate(sys.stdin):
    if count == 2:
        if mode == "crash":
            os._exit(7)
        if mode == "hang":
            time.sleep(30)
        if mode == "two":
            print("[]\n[]", flush=True)
            continue
    print("[]", flush=True)
