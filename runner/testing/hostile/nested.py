import sys

sys.stdout.write("[" * 500000 + "]" * 500000)  # a million brackets, just under the stdout cap
