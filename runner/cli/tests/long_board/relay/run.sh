# As the 2016 contest's commands/python_3.sh: hand the board on to the real bot.
exec python3 count.py "$1"
