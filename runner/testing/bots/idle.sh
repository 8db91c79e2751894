echo '[]'
