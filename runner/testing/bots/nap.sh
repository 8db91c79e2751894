# A slow but harmless bot: it naps before passing.
sleep 0.01
echo '[]'
