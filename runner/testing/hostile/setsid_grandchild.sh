# A grandchild leaves the bot's session and process group; only a PID namespace (the sandbox's,
# or the one a bot gets without it) can still end it with the move.
setsid sh -c 'sleep 31.4159' &
echo '[]'
