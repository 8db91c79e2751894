"""A tlv bot (docs/protocol.md): clients/arena_client.py, copied beside this by the test, plays
one game; with a fifth argument, a file that gets "exact" or "differs": whether the runner's B
equalled the client's own count."""
import random
import sys

import arena_client

host, port, width, height = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
exact = arena_client.play(host, port, "test/tlv_blocks", width, height, random.Random(7))
if len(sys.argv) > 5:
    with open(sys.argv[5], "a") as record:
        record.write("exact\n" if exact else "differs\n")
