echo 'I will place a glider at (3, 4)'
