/* Floats and doubles: series, Newton iteration, mixed conversions. */
#include <stdio.h>

static double newton_sqrt(double x) {
  double g = x > 1 ? x / 2 : 1;
  for (int i = 0; i < 30; i++)
    g = 0.5 * (g + x / g);
  return g;
}

static float harmonic(int n) {
  float s = 0.0f;
  for (int i = 1; i <= n; i++)
    s += 1.0f / (float)i;
  return s;
}

static double poly(double x) { return ((3.0 * x - 2.5) * x + 0.75) * x - 1.0; }

int main(void) {
  printf("sqrt(2)=%.9f\n", newton_sqrt(2.0));
  printf("sqrt(1e6)=%.6f\n", newton_sqrt(1e6));
  printf("H(1000)=%.5f\n", harmonic(1000));
  double acc = 0;
  for (int i = -10; i <= 10; i++)
    acc += poly(i / 4.0);
  printf("poly sum=%.6f\n", acc);
  int trunc = (int)(acc * 10.0);
  unsigned char small = (unsigned char)(trunc & 0xff);
  printf("trunc=%d small=%u\n", trunc, small);
  printf("cmp=%d\n", (harmonic(10) > 2.9f) + 2 * (poly(1.0) < 0.5));
  return 0;
}
