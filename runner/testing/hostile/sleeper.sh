sleep 31.4159
