# A tlv bot that identifies, then answers its T with a message of no known type.
import socket
import sys

import tlv_wire

s = socket.create_connection((sys.argv[1], int(sys.argv[2])))
s.sendall(b"I\x05x/bad")
while True:
    kind, _ = tlv_wire.message(s)
    if kind == ord("T"):
        s.sendall(b"Z\x00")
