import os

with open(os.path.join(os.environ["GOL_SCRATCH"], "big"), "wb") as f:
    for _ in range(200):
        f.write(b"x" * (1 << 20))
print("[]")
