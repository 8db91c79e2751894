# The persistent protocol with the flush forgotten: the reply waits in stdout's buffer.
import sys

for line in sys.stdin:
    print("[]")
