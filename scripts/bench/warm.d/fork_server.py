"""The bare fork server scripts/bench/warm sets a warm Python move beside (issue 39's target: a warm
move at most 1.5x this): a python3 that forks a child per move, which parses the board and prints
[] on a pipe that this process reads to its end before it reaps the child. No sandbox, launcher or
runner: what a move costs with nothing but fork, the parse and the child's end. Pinned to one CPU,
as move-bench is. A board as move-bench makes one: 1000x1000, CELLS live cells of either player.
Usage: python3 fork_server.py CELLS MOVES; prints the seconds per move."""
import json
import os
import random
import sys
import time


def board_json(cells, tick):
    rng = random.Random(1)
    live = {}
    while len(live) < cells:
        live.setdefault((rng.randrange(1000), rng.randrange(1000)), rng.choice("12"))
    board = ",".join('"(%d,%d)":%s' % (y, x, owner) for (y, x), owner in sorted(live.items()))
    return '{"y_size":1000,"x_size":1000,"board":{%s},"bot_id":1,"tick_id":%d}' % (board, tick)


def move(board):
    """One move: the child parses the board and prints [], this process reads it and reaps it."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        os.dup2(write, 1)
        json.loads(board)
        print("[]")
        sys.stdout.flush()
        os._exit(0)
    os.close(write)
    reply = b""
    while chunk := os.read(read, 65536):
        reply += chunk
    os.close(read)
    os.waitpid(pid, 0)
    if reply != b"[]\n":
        sys.exit("fork_server: the child replied %r" % reply)


def main():
    cells, moves = int(sys.argv[1]), int(sys.argv[2])
    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    board = board_json(cells, 0)
    move(board)  # the first, which touches this process's pages once, apart as a bot's first is
    start = time.perf_counter()
    for _ in range(moves):
        move(board)
    print((time.perf_counter() - start) / moves)


if __name__ == "__main__":
    main()
