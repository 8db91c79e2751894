"""Parses the board and plays nothing: a move that is all interpreter start-up and JSON."""
import json
import sys

json.loads(sys.argv[1])
print("[]")
