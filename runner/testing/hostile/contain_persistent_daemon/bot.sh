# A persistent bot that leaves a daemon behind when it starts and goes on playing: contained,
# the daemon ends with the game.
setsid sh -c 'touch started; sleep 31.4159 &'
while read -r board; do echo '[]'; done
