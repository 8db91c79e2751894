#!/usr/bin/env python3
"""random: brings 30 random empty cells alive every tick.

Deterministic: the generator is seeded from tick_id, bot_id and the board size,
so a game replays the same way. Reads the board from the last command-line
argument (2016 protocol) or, with no argument, from stdin.
"""
import random
import re
import sys

MAX_CELLS = 30


def field(text, name, default=0):
    m = re.search('"%s":(-?\\d+)' % name, text)
    return int(m.group(1)) if m else default


def main():
    text = sys.argv[-1] if len(sys.argv) > 1 else sys.stdin.read()
    h, w = field(text, "y_size"), field(text, "x_size")
    bot_id, tick = field(text, "bot_id", 1), field(text, "tick_id")
    moves = []
    if h > 0 and w > 0:
        # Occupied cells as "y,x" strings, straight from the keys: no full JSON parse needed.
        occupied = set(re.findall(r'"\((\d+,\d+)\)"', text))
        rng = random.Random(tick * 1000003 + bot_id * 7919 + h * 31 + w)
        if h * w <= 4 * (MAX_CELLS + len(occupied)):
            empty = [(y, x) for y in range(h) for x in range(w) if "%d,%d" % (y, x) not in occupied]
            moves = rng.sample(empty, min(MAX_CELLS, len(empty)))
        else:
            chosen = set()
            tries = 0
            while len(chosen) < MAX_CELLS and tries < 50 * MAX_CELLS:
                tries += 1
                y, x = rng.randrange(h), rng.randrange(w)
                if "%d,%d" % (y, x) not in occupied:
                    chosen.add((y, x))
            moves = sorted(chosen)
    sys.stdout.write("[" + ",".join("[%d,%d]" % c for c in moves) + "]\n")


if __name__ == "__main__":
    main()
