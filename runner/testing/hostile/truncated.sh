printf '[[1,2],[3,'
