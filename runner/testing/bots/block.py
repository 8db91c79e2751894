# Places one block on tick 0, at a spot that depends on the seat, then waits.
import json
import sys

state = json.loads(sys.argv[1])
if state["tick_id"] == 0:
    y = 2 if state["bot_id"] == 1 else 8
    print(json.dumps([[y, 2], [y, 3], [y + 1, 2], [y + 1, 3]]))
else:
    print("[]")
