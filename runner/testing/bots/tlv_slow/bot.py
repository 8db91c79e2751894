# A tlv bot that connects by its environment and answers each T too late.
import os, socket, sys, time


def read(s, n):
    data = b""
    while len(data) < n:
        piece = s.recv(n - len(data))
        if not piece:
            sys.exit(0)
        data += piece
    return data


s = socket.create_connection((os.environ["GOL_ARENA_HOST"], int(os.environ["GOL_ARENA_PORT"])))
s.sendall(b"I\x06x/slow")
while True:
    kind, length = read(s, 2)
    read(s, length)
    if kind == ord("T"):
        time.sleep(5)
        s.sendall(b"M\x00")
