# same_strategy.py in the tlv protocol: its seat is 1 when its first message after S is T.
import socket
import struct
import sys

import same_strategy
import tlv_wire


host, port, width, height = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
s = socket.create_connection((host, port))
s.sendall(b"I\x0dtest/same_tlv")
seat, tick = None, 0
while True:
    kind, _ = tlv_wire.message(s)
    if kind == ord("B"):
        break
    if kind == ord("M") and seat is None:
        seat = 2
    if kind == ord("T"):
        seat = seat or 1
        move = same_strategy.cells(tick, seat, width, height)
        s.sendall(b"M" + bytes([4 * len(move)]) + b"".join(struct.pack("!HH", x, y) for x, y in move))
    if kind == ord("G"):
        tick += 1
