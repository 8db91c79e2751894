public class Count {
    public static void main(String[] args) {
        String board = args[args.length - 1];
        long n = board.chars().filter(c -> c == '(').count();
        System.out.println(board.endsWith("}") ? "[[" + n / 1000 + "," + n % 1000 + "]]" : "cut");
    }
}
