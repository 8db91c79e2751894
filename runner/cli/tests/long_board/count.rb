board = ARGV[-1]
n = board.count("(")
puts(board.end_with?("}") ? "[[#{n / 1000},#{n % 1000}]]" : "cut")
