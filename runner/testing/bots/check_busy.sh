# Starts at once and answers an empty board at once, but takes 300 ms on a board with live
# cells: its time is its own work, not start-up.
case "$1" in
  *'"board":{}'*) ;;
  *) sleep 0.3 ;;
esac
echo '[]'
