#include <stdio.h>
#include <string.h>

int main(int argc, char** argv) {
    const char* board = argv[argc - 1];
    size_t len = strlen(board);
    long n = 0;
    for (size_t i = 0; i < len; ++i) n += board[i] == '(';
    if (len == 0 || board[len - 1] != '}') puts("cut");
    else printf("[[%ld,%ld]]\n", n / 1000, n % 1000);
    return 0;
}
