"""Brings 30 random empty cells alive each turn. Seeded by the game (GOL_SEED), the tick and the
seat: repeatable, and other cells in another game."""
import json
import os
import random
import sys


def main():
    state = json.loads(sys.argv[1])
    h, w = state["y_size"], state["x_size"]
    taken = state["board"]
    game = int(os.environ.get("GOL_SEED", "0"))
    rng = random.Random((game << 32) + state["tick_id"] * 2 + state["bot_id"])
    cells = []
    for _ in range(200):
        if len(cells) == 30:
            break
        y, x = rng.randrange(h), rng.randrange(w)
        if f"({y},{x})" not in taken and [y, x] not in cells:
            cells.append([y, x])
    print(json.dumps(cells))


main()
