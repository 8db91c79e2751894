#!/usr/bin/env python3
"""attacker: walls off the enemy's births with blocks and takes ground right next to it.

Under these rules a still life cannot be killed (survival counts only a player's own
neighbours), but every birth needs an empty cell with no enemy neighbour. So each tick:
1. It finds the enemy's pending births (empty cells with exactly 3 enemy neighbours and none
   of ours): growing seeds, gliders, oscillators, fresh placements it saw as seat 2. For each
   it places one of its own blocks (a 2x2 still life) touching that cell, choosing the spot
   that stops the most births; the block stays, so the birth is stopped for good. Where no
   block fits, a single cell stops the birth for this generation.
2. The rest of the budget goes to blocks on a lattice (rows every 3, columns every 4) in the
   free ground nearest the enemy's centre of mass, so the contested ground is taken first,
   and then to blocks in the holes of the enemy's still lifes (a 2x2 gap just under an enemy
   cell), space the enemy can never use itself.
Every block is checked by a one-generation local simulation to keep its own cells stable.
Deterministic. Reads the board from the last command-line argument, or from stdin.
"""
import re
import sys
from collections import Counter

BUDGET = 30
BLOCK = ((0, 0), (0, 1), (1, 0), (1, 1))
NB8 = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))


def field(text, name, default=0):
    m = re.search('"%s":(-?\\d+)' % name, text)
    return int(m.group(1)) if m else default


def main():
    text = sys.argv[-1] if len(sys.argv) > 1 else sys.stdin.read()
    H, W = field(text, "y_size"), field(text, "x_size")
    me = field(text, "bot_id", 1)
    if H < 1 or W < 1:
        print("[]")
        return
    # A cell is the integer y * S + x; the two spare columns per row keep x-1 and x+1 of
    # edge cells off the board, so neighbours are plain offsets.
    S = W + 2
    NB = [dy * S + dx for dy, dx in NB8]
    own, enemy = set(), set()
    for ys, xs, ids in re.findall(r'\((\d+),(\d+)\)"\s*:\s*(\d+)', text):
        y, x = int(ys), int(xs)
        if y < H and x < W:
            (own if int(ids) == me else enemy).add(y * S + x)

    moves = []
    budget = BUDGET

    def on_board(c):
        return 0 <= c < H * S and c % S < W

    def free(c):
        return on_board(c) and c not in own and c not in enemy

    def own_count(c):
        n = 0
        for d in NB:
            if c + d in own:
                n += 1
        return n

    def block_ok(y, x):
        """Block at (y, x) fits and, with it, every cell within one of it keeps its state."""
        if y < 0 or x < 0 or y + 1 >= H or x + 1 >= W:
            return None
        c = y * S + x
        cells = [c, c + 1, c + S, c + S + 1]
        if not all(free(k) for k in cells):
            return None
        own.update(cells)
        ok = True
        for yy in range(max(0, y - 1), min(H, y + 3)):
            for xx in range(max(0, x - 1), min(W, x + 3)):
                k = yy * S + xx
                n = own_count(k)
                if (k in own and not 2 <= n <= 3) or (k not in own and n == 3):
                    ok = False
                    break
            if not ok:
                break
        own.difference_update(cells)
        return cells if ok else None

    def take(cells):
        nonlocal budget
        own.update(cells)
        moves.extend(cells)
        budget -= len(cells)

    # 1. The enemy's pending births.
    counts = Counter()
    for d in NB:
        counts.update(map(d.__add__, enemy))
    births = sorted(c for c, n in counts.items()
                    if n == 3 and free(c) and own_count(c) == 0)
    if births:
        pending = set(births)
        for b in births:
            if budget < 4:
                break
            if b not in pending:
                continue
            by, bx = divmod(b, S)
            best, best_cover = None, 0
            for ty in range(by - 2, by + 2):
                for tx in range(bx - 2, bx + 2):
                    cells = block_ok(ty, tx)
                    if cells is None:
                        continue
                    cover = set()
                    for c in cells:
                        for d in NB + [0]:
                            if c + d in pending:
                                cover.add(c + d)
                    if len(cover) > best_cover:
                        best, best_cover = (cells, cover), len(cover)
            if best:
                take(best[0])
                pending -= best[1]
        # Single cells for what is left: each must not touch or crowd our own cells.
        ring2 = [dy * S + dx for dy in range(-2, 3) for dx in range(-2, 3)]
        for b in births:
            if budget < 1:
                break
            if b not in pending:
                continue
            for c in [b] + [b + d for d in NB]:
                if not free(c) or any(c + d in own for d in ring2):
                    continue
                take([c])
                for d in NB + [0]:
                    pending.discard(c + d)
                break

    # 2. Lattice blocks nearest the enemy's centre of mass (or ours, or the board's centre).
    if budget >= 4 and H >= 2 and W >= 2:
        ref = enemy or own
        if ref:
            cy = sum(c // S for c in ref) // len(ref)
            cx = sum(c % S for c in ref) // len(ref)
        else:
            cy, cx = H // 2, W // 2
        si_max, sj_max = (H - 2) // 3, (W - 2) // 4
        # Slots whose block is already (partly) taken: skipped without a closer look.
        taken = set()
        for cells in (own, enemy):
            for c in cells:
                y, x = divmod(c, S)
                if y % 3 < 2 and x % 4 < 2:
                    taken.add((y // 3, x // 4))
        hi, hj = min(cy // 3, si_max), min(cx // 4, sj_max)
        r_max = max(hi, si_max - hi, hj, sj_max - hj)
        r = 0
        while budget >= 4 and r <= r_max:
            for i in range(max(0, hi - r), min(si_max, hi + r) + 1):
                if abs(i - hi) == r:
                    js = range(max(0, hj - r), min(sj_max, hj + r) + 1)
                else:
                    js = [j for j in (hj - r, hj + r) if 0 <= j <= sj_max]
                for j in js:
                    if (i, j) in taken:
                        continue
                    cells = block_ok(3 * i, 4 * j)
                    if cells:
                        take(cells)
                        if budget < 4:
                            break
                if budget < 4:
                    break
            r += 1

    # 3. Holes in the enemy's still lifes.
    if budget >= 4 and enemy:
        for c in sorted(enemy):
            y, x = divmod(c, S)
            for tx in (x, x - 1):
                cells = block_ok(y + 1, tx)
                if cells:
                    take(cells)
                    break
            if budget < 4:
                break

    sys.stdout.write("[" + ",".join("[%d,%d]" % divmod(c, S) for c in moves) + "]\n")


if __name__ == "__main__":
    main()
