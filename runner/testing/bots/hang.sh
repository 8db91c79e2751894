# Hangs with a child in its group; the unusual duration lets a test find leftovers.
sleep 31.4159 &
sleep 31.4159
