# Leaves a daemon behind: setsid takes it out of the bot's session and process group, and the
# shell that started it exits at once, orphaning it. Contained, it ends with the move.
setsid sh -c 'touch contain_daemon.started; sleep 31.4159 &'
echo '[]'
