# Exits cleanly without printing anything.
