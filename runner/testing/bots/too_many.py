print([[0, x] for x in range(31)])
