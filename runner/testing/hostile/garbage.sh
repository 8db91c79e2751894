head -c 3000 /dev/urandom
