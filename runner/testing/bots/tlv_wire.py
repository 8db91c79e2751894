"""What the tlv test bots share (the tests copy it beside each): whole messages off the socket."""
import sys


def read(s, n):
    """Exactly n bytes; the bot exits when the runner closes the connection."""
    data = b""
    while len(data) < n:
        piece = s.recv(n - len(data))
        if not piece:
            sys.exit(0)
        data += piece
    return data


def message(s):
    """The next message: its type as an int, and its value."""
    kind, length = read(s, 2)
    return kind, read(s, length)
