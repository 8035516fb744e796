/* Nested ifs, ternaries and short-circuit logic. */
#include <stdio.h>

static int classify(int x, int y) {
  if (x > 0) {
    if (y > 0)
      return 1;
    else if (y < -10)
      return 2;
    return 3;
  } else if (x == 0) {
    return y > 5 && y < 50 ? 4 : 5;
  }
  return (x < -100 || y == 7) ? 6 : 7;
}

static unsigned clamp(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

int main(void) {
  int hist[8] = {0};
  for (int x = -150; x < 150; x += 7)
    for (int y = -20; y < 60; y += 3)
      hist[classify(x, y)]++;
  for (int i = 1; i < 8; i++)
    printf("class %d: %d\n", i, hist[i]);
  unsigned acc = 0;
  for (int v = -300; v < 300; v += 11)
    acc = acc * 31 + clamp(v, -50, 120);
  printf("acc=%u\n", acc);
  return 0;
}
