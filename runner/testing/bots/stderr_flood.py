import sys

chunk = "x" * 65536
for _ in range(160):  # 10 MiB on stderr before a valid reply
    sys.stderr.write(chunk)
sys.stderr.flush()
print("[]")
