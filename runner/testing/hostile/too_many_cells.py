print([[i, i] for i in range(31)])
