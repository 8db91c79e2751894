# A grandchild leaves the bot's session and process group; only the sandbox's PID namespace
# can still end it with the move.
setsid sh -c 'sleep 31.4159' &
echo '[]'
