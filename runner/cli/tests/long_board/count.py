import sys

board = sys.argv[-1]
n = board.count("(")
print("cut" if not board.endswith("}") else "[[%d,%d]]" % (n // 1000, n % 1000))
