"""Brings 30 random empty cells alive each turn. Seeded by the tick and seat: repeatable."""
import json
import random
import sys


def main():
    state = json.loads(sys.argv[1])
    h, w = state["y_size"], state["x_size"]
    taken = state["board"]
    rng = random.Random(state["tick_id"] * 2 + state["bot_id"])
    cells = []
    for _ in range(200):
        if len(cells) == 30:
            break
        y, x = rng.randrange(h), rng.randrange(w)
        if f"({y},{x})" not in taken and [y, x] not in cells:
            cells.append([y, x])
    print(json.dumps(cells))


main()
