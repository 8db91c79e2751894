# same_strategy.py in the 2016 protocol.
import json
import sys

import same_strategy

state = json.loads(sys.argv[1])
move = same_strategy.cells(state["tick_id"], state["bot_id"], state["x_size"], state["y_size"])
print(json.dumps([[y, x] for x, y in move]))
