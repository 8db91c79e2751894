import sys

chunk = "[" * 65536
for _ in range(1600):  # 100 MiB
    sys.stdout.write(chunk)
