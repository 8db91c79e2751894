# A tlv bot that connects by its environment and answers each T too late.
import os
import socket
import time

import tlv_wire

s = socket.create_connection((os.environ["GOL_ARENA_HOST"], int(os.environ["GOL_ARENA_PORT"])))
s.sendall(b"I\x06x/slow")
while True:
    kind, _ = tlv_wire.message(s)
    if kind == ord("T"):
        time.sleep(5)
        s.sendall(b"M\x00")
