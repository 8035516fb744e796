/* Static and global data: counters, lookup tables, constant strings. */
#include <stdio.h>

int counter = 3;
static int calls;
static const short squares[10] = {0, 1, 4, 9, 16, 25, 36, 49, 64, 81};
const char *greeting = "hello";
static char scratch[32];
double weights[4] = {0.5, 1.5, 2.25, -1.0};

static int next_id(void) {
  static int id = 100;
  calls++;
  return id++ * counter;
}

static double weigh(int k) { return weights[k & 3] * squares[k % 10]; }

int main(void) {
  int s = 0;
  for (int i = 0; i < 12; i++)
    s += next_id();
  printf("ids sum=%d calls=%d\n", s, calls);
  double w = 0;
  for (int k = 0; k < 25; k++)
    w += weigh(k);
  printf("weight=%.3f\n", w);
  for (int i = 0; greeting[i]; i++)
    scratch[i] = greeting[i] - 32;
  printf("%s %s\n", greeting, scratch);
  counter = 7;
  printf("after=%d\n", next_id());
  return 0;
}
