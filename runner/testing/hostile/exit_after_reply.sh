echo '[[1,1]]'
exit 4
