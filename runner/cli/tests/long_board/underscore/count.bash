# bash, with the board in a program's environment as `_`, bash's "last argument" (over 128 KiB),
# when it runs the command that counts.
board="${!#}"
n=$(env _="$board" tr -cd '(' <<<"$board" | wc -c)
if [[ $board == *\} ]]; then echo "[[$((n / 1000)),$((n % 1000))]]"; else echo cut; fi
