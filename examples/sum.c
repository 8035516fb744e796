#include <stdio.h>
static int sq(int x) { return x * x; }
int sum(int *a, int n) { int s = 0; for (int i = 0; i < n; i++) { if (a[i] > 3) s += sq(a[i]); else s -= a[i]; } return s; }
int main(void) { int a[5] = {1,2,3,4,5}; printf("%d %s\n", sum(a, 5), "hi"); return 0; }
