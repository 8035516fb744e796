/* Nested loops, accumulators and early exits. */
#include <stdio.h>

static int sum_to(int n) {
  int s = 0;
  for (int i = 1; i <= n; i++)
    s += i * i - (i % 3);
  return s;
}

static long triangle(int rows) {
  long total = 0;
  for (int r = 0; r < rows; r++)
    for (int c = 0; c <= r; c++)
      total += (r ^ c) + (r & c) * 2;
  return total;
}

static int first_multiple(int start, int k) {
  int i = start;
  while (1) {
    if (i % k == 0)
      break;
    i++;
  }
  return i;
}

int main(void) {
  printf("sum_to(100)=%d\n", sum_to(100));
  printf("triangle(40)=%ld\n", triangle(40));
  int m = 0;
  do {
    m += first_multiple(m + 1, 7);
  } while (m < 500);
  printf("m=%d\n", m);
  return 0;
}
