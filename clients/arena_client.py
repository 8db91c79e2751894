#!/usr/bin/env python3
"""A client for `runner serve` (docs/arena.md) that keeps its own board.

    clients/arena_client.py --host HOST --port PORT --name alice/Blocks [--games N]

It plants one block (a 2x2 still life) a turn on free ground of its own half. At each game's end
it prints the server's count beside its own and exits 1 if they ever differ.
"""
import argparse
import random
import socket
import struct
import sys

NEIGHBOURS = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy]


class Board:
    """Live cells by (x, y) -> 1 (mine) or 2 (the opponent's), with the contest's rules."""

    def __init__(self, width, height):
        self.width, self.height, self.cells = width, height, {}

    def place(self, cells, owner):
        # As the server places: off the board ignored, live cells skipped, repeats once.
        for x, y in cells:
            if 0 <= x < self.width and 0 <= y < self.height and (x, y) not in self.cells:
                self.cells[(x, y)] = owner

    def step(self):
        counts = {}  # (x, y) -> [neighbours of 1, neighbours of 2]
        for (x, y), owner in self.cells.items():
            for dx, dy in NEIGHBOURS:
                nx, ny = x + dx, y + dy
                if 0 <= nx < self.width and 0 <= ny < self.height:
                    counts.setdefault((nx, ny), [0, 0])[owner - 1] += 1
        nxt = {}
        for cell, (n1, n2) in counts.items():
            owner = self.cells.get(cell)
            if owner:
                if (n1 if owner == 1 else n2) in (2, 3):
                    nxt[cell] = owner
            elif n1 == 3 and n2 == 0:
                nxt[cell] = 1
            elif n2 == 3 and n1 == 0:
                nxt[cell] = 2
        self.cells = nxt

    def count(self, owner):
        return sum(1 for o in self.cells.values() if o == owner)


def send(sock, kind, value=b""):
    sock.sendall(kind + bytes([len(value)]) + value)


def receive(sock):
    header = read_exactly(sock, 2)
    return header[:1], read_exactly(sock, header[1])


def read_exactly(sock, n):
    data = b""
    while len(data) < n:
        piece = sock.recv(n - len(data))
        if not piece:
            raise ConnectionError("the server closed the connection")
        data += piece
    return data


def my_move(board, first_seat, rng):
    """A block on free ground of my half, with a free border so it stands alone."""
    half = board.width // 2
    for _ in range(50):
        x = rng.randrange(1, half - 2) + (0 if first_seat else half)
        y = rng.randrange(1, board.height - 2)
        around = [(x + dx, y + dy) for dx in range(-1, 3) for dy in range(-1, 3)]
        if not any(c in board.cells for c in around):
            return [(x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1)]
    return []


def play(host, port, name, width, height, rng):
    """One game; True when the server's B equals this client's own count."""
    with socket.create_connection((host, port)) as sock:
        send(sock, b"I", name.encode())
        kind, value = receive(sock)
        if kind != b"S":
            raise ConnectionError(f"expected S, got {kind!r}")
        print(f"{name}: playing {value.decode()}", file=sys.stderr)
        board = Board(width, height)
        first_seat = None
        while True:
            kind, value = receive(sock)
            if kind == b"T":
                if first_seat is None:
                    first_seat = True
                cells = my_move(board, first_seat, rng)
                send(sock, b"M", b"".join(struct.pack("!HH", x, y) for x, y in cells))
                board.place(cells, 1)
            elif kind == b"M":
                if first_seat is None:
                    first_seat = False
                board.place(struct.iter_unpack("!HH", value), 2)
            elif kind == b"G":
                board.step()
            elif kind == b"B":
                own, other = struct.unpack("!II", value)
                mine = (board.count(1), board.count(2))
                print(f"{name}: B {own} {other}, own count {mine[0]} {mine[1]}", flush=True)
                return (own, other) == mine
            else:
                raise ConnectionError(f"unexpected message {kind!r}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--name", required=True, help="name/bot, and ' SECRET' when the arena has keys")
    parser.add_argument("--width", type=int, default=1024)
    parser.add_argument("--height", type=int, default=1024)
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    exact = all([play(args.host, args.port, args.name, args.width, args.height, rng) for _ in range(args.games)])
    sys.exit(0 if exact else 1)


if __name__ == "__main__":
    main()
