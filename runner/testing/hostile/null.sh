echo 'null'
