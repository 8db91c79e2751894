# A tlv bot that identifies, then answers its T with a message of no known type.
import socket, sys


def read(s, n):
    data = b""
    while len(data) < n:
        piece = s.recv(n - len(data))
        if not piece:
            sys.exit(0)
        data += piece
    return data


s = socket.create_connection((sys.argv[1], int(sys.argv[2])))
s.sendall(b"I\x05x/bad")
while True:
    kind, length = read(s, 2)
    read(s, length)
    if kind == ord("T"):
        s.sendall(b"Z\x00")
