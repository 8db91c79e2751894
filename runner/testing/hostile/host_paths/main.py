# Names host paths in its manifest's run command ("/" and /etc/shadow) hoping the sandbox binds
# them in, then looks for the host: secrets, root's home, other bots beside its own folder, other
# games' scratch folders. Answers validly only when it finds none of it.
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
scratch = os.environ["GOL_SCRATCH"]
seen = []
for path in ["/etc/shadow", *sys.argv[1:-1]]:
    try:
        with open(path) as f:
            f.read(1)
        seen.append("read " + path)
    except OSError:
        pass

def mine(path):
    """Its own folder, its scratch folder, or a folder on the way to one of them."""
    return any(own == path or own.startswith(path + "/") for own in (here, scratch))


for folder in ["/root", os.path.dirname(here), os.path.dirname(scratch)]:
    try:
        others = [e for e in os.listdir(folder) if not mine(os.path.join(folder, e))]
    except OSError:
        others = []
    if others:
        seen.append("listed " + folder)
print("[]" if not seen else "saw: " + ", ".join(seen))
