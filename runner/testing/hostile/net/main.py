# Connects to the loopback port the test listens on (written beside this file). Answers validly
# only when it cannot.
import socket

port = int(open("port").read())
try:
    socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
    print("connected")
except OSError:
    print("[]")
