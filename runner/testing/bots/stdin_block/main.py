# The stdin protocol: the same JSON object, on standard input instead of argv.
import json
import sys

state = json.loads(sys.stdin.read())
if state["tick_id"] == 0:
    y = 2 if state["bot_id"] == 1 else 8
    print(json.dumps([[y, 2], [y, 3], [y + 1, 2], [y + 1, 3]]))
else:
    print("[]")
