/* Arrays: sorting, prefix sums, 2-D matrices (vectorizable at -O2). */
#include <stdio.h>

#define N 64

static void insertion_sort(int *a, int n) {
  for (int i = 1; i < n; i++) {
    int v = a[i], j = i - 1;
    while (j >= 0 && a[j] > v) {
      a[j + 1] = a[j];
      j--;
    }
    a[j + 1] = v;
  }
}

static void matmul(int n, int a[n][n], int b[n][n], int c[n][n]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      int s = 0;
      for (int k = 0; k < n; k++)
        s += a[i][k] * b[k][j];
      c[i][j] = s;
    }
}

int main(void) {
  int a[N], pre[N + 1];
  unsigned seed = 12345;
  for (int i = 0; i < N; i++) {
    seed = seed * 1103515245u + 12345u;
    a[i] = (int)((seed >> 16) % 1000);
  }
  insertion_sort(a, N);
  pre[0] = 0;
  for (int i = 0; i < N; i++)
    pre[i + 1] = pre[i] + a[i];
  printf("min %d max %d sum %d\n", a[0], a[N - 1], pre[N]);
  int m1[8][8], m2[8][8], m3[8][8];
  for (int i = 0; i < 8; i++)
    for (int j = 0; j < 8; j++) {
      m1[i][j] = i + j;
      m2[i][j] = i - j;
    }
  matmul(8, m1, m2, m3);
  long tr = 0;
  for (int i = 0; i < 8; i++)
    tr += m3[i][i];
  printf("trace %ld corner %d\n", tr, m3[7][0]);
  return 0;
}
