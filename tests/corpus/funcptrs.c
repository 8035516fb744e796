/* Function pointers: tables, callbacks, qsort comparator. */
#include <stdio.h>
#include <stdlib.h>

typedef int (*binop)(int, int);

static int op_add(int a, int b) { return a + b; }
static int op_sub(int a, int b) { return a - b; }
static int op_mul(int a, int b) { return a * b; }
static int op_max(int a, int b) { return a > b ? a : b; }

static const binop table[] = {op_add, op_sub, op_mul, op_max};
static const char *names[] = {"add", "sub", "mul", "max"};

static int fold(const int *v, int n, binop f, int init) {
  for (int i = 0; i < n; i++)
    init = f(init, v[i]);
  return init;
}

static int cmp_desc(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x < y) - (x > y);
}

int main(void) {
  int v[] = {5, -3, 12, 7, 0, 9, -8, 4};
  for (int i = 0; i < 4; i++)
    printf("%s -> %d\n", names[i], fold(v, 8, table[i], i == 2 ? 1 : 0));
  qsort(v, 8, sizeof v[0], cmp_desc);
  for (int i = 0; i < 8; i++)
    printf("%d ", v[i]);
  printf("\n");
  return 0;
}
