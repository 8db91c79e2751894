my $board = $ARGV[-1];
my $n = () = $board =~ /\(/g;
print($board =~ /\}$/ ? sprintf("[[%d,%d]]\n", int($n / 1000), $n % 1000) : "cut\n");
