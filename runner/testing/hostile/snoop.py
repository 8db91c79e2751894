# Tries to read other bots and the results store, and to write into its own folder. Answers
# validly only when all of that fails.
import glob
import os

here = os.path.dirname(os.path.abspath(__file__))
seen = [p for p in glob.glob(os.path.join(here, "*")) if not p.endswith("snoop.py")]
seen += glob.glob(os.path.join(here, "..", "results", "*"))
seen += glob.glob(os.path.expanduser("~root/*"))
try:
    with open(os.path.join(here, "planted.txt"), "w") as f:
        f.write("x")
    seen.append("wrote planted.txt")
except OSError:
    pass
print("[]" if not seen else "saw: " + " ".join(seen))
