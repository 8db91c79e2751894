# Spends a one-second time bank in one move: notes each move it is run for in bank_moves.txt
# (its folder, its working directory without the sandbox), then takes 1.2 s before passing.
echo move >> bank_moves.txt
sleep 1.2
echo '[]'
