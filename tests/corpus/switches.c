/* Switch statements: dense, sparse, fallthrough. */
#include <stdio.h>

static int dense(int op, int a, int b) {
  switch (op) {
  case 0: return a + b;
  case 1: return a - b;
  case 2: return a * b;
  case 3: return b ? a / b : 0;
  case 4: return b ? a % b : 0;
  case 5: return a << (b & 7);
  default: return -1;
  }
}

static const char *sparse(int code) {
  switch (code) {
  case 200: return "ok";
  case 301: return "moved";
  case 404: return "not found";
  case 500: return "error";
  case 1000: return "far";
  }
  return "unknown";
}

static int fall(int n) {
  int r = 0;
  switch (n % 5) {
  case 0: r += 1; /* fallthrough */
  case 1: r += 10; /* fallthrough */
  case 2: r += 100; break;
  case 3: r -= 3;
  default: r *= 2;
  }
  return r;
}

int main(void) {
  int s = 0;
  for (int i = 0; i < 60; i++)
    s += dense(i % 7, i * 3, i % 5);
  printf("dense=%d\n", s);
  int codes[] = {200, 301, 404, 500, 1000, 7};
  for (int i = 0; i < 6; i++)
    printf("%d %s\n", codes[i], sparse(codes[i]));
  int f = 0;
  for (int i = 0; i < 23; i++)
    f += fall(i);
  printf("fall=%d\n", f);
  return 0;
}
