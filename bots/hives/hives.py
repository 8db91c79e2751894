"""Plants beehives (six-cell still lifes) in the quietest free spots it can find, five a
turn. Uses the stdin protocol: the board arrives on standard input, so it has no 128 KiB
limit however crowded the board gets."""
import json
import sys

HIVE = [(0, 1), (0, 2), (1, 0), (1, 3), (2, 1), (2, 2)]


def main():
    state = json.loads(sys.stdin.read())
    h, w, me, tick = state["y_size"], state["x_size"], state["bot_id"], state["tick_id"]
    live = set()
    for key in state["board"]:
        y, x = key[1:-1].split(",")
        live.add((int(y), int(x)))
    move, used = [], set()
    # Sweep the board in a different order each turn, from its own half.
    step = 7
    rows = range(1, h - 3, step) if me == 1 else range(h - 4, 0, -step)
    offset = (tick * 3) % step
    for y in rows:
        for x in range(1 + offset, w - 4, step):
            if len(move) == 30:
                break
            area = [(y + dy, x + dx) for dy in range(-1, 4) for dx in range(-1, 5)]
            if any(c in live or c in used for c in area):
                continue
            used.update(area)
            move += [[y + dy, x + dx] for dy, dx in HIVE]
        if len(move) == 30:
            break
    print(json.dumps(move))


main()
