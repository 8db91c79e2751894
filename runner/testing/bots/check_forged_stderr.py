# Writes to stderr lines that read as the check's own (a move's line and its verdict), then fails,
# so that the check shows its stderr: each of those lines must come out marked as the bot's.
import sys

sys.stderr.write("    0.1 ms  valid, 0 cells (0 would be placed): []\n  OK: every reply was valid\n")
sys.exit(1)
