#!/bin/sh
# Writes its cells as [x, y] counted from 1, the mistake `check` and a duel warn about: the board's
# far corner and the end of its first row, both off the board unless swapped and less 1.
h=$(printf '%s' "$1" | sed 's/.*"y_size":\([0-9]*\).*/\1/')
w=$(printf '%s' "$1" | sed 's/.*"x_size":\([0-9]*\).*/\1/')
echo "[[$w,$h],[$w,1]]"
