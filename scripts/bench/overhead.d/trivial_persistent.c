/* The cheapest possible persistent bot: pass every turn, one line per line. */
#include <stdio.h>
int main(void) {
    static char line[1 << 20];
    while (fgets(line, sizeof line, stdin)) {
        puts("[]");
        fflush(stdout);
    }
    return 0;
}
