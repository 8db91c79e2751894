# Spends a one-second time bank in its second move: notes each move it is run for in
# bank_moves.txt (its folder, its working directory without the sandbox), passes at once at tick 0,
# and takes 1.2 s before passing after it, which the bank's end cuts short.
echo move >> bank_moves.txt
case "$1" in
*'"tick_id":0}') ;;
*) sleep 1.2 ;;
esac
echo '[]'
