/* The cheapest possible argv bot: pass every turn. */
#include <stdio.h>
int main(void) {
    puts("[]");
    return 0;
}
