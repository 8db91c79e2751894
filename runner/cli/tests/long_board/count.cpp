#include <algorithm>
#include <iostream>
#include <string>

int main(int argc, char** argv) {
    const std::string board = argv[argc - 1];
    const long n = std::count(board.begin(), board.end(), '(');
    if (board.empty() || board.back() != '}') std::cout << "cut\n";
    else std::cout << "[[" << n / 1000 << "," << n % 1000 << "]]\n";
}
