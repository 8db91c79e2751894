# The persistent protocol: one JSON object per line on stdin, one reply line per object.
# Places a block on its first tick, then passes; counts its ticks to show it stays alive.
import json
import sys

for count, line in enumerate(sys.stdin):
    state = json.loads(line)
    if count == 0:
        y = 2 if state["bot_id"] == 1 else 8
        print(json.dumps([[y, 2], [y, 3], [y + 1, 2], [y + 1, 3]]), flush=True)
    else:
        print("[]", flush=True)
