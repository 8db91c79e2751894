import sys

chunk = "x" * 65536
for _ in range(1600):  # 100 MiB on stderr, then a valid reply
    sys.stderr.write(chunk)
print("[]")
