/* Variadic functions of our own plus many printf formats. */
#include <stdarg.h>
#include <stdio.h>

static long sum_n(int n, ...) {
  va_list ap;
  va_start(ap, n);
  long s = 0;
  for (int i = 0; i < n; i++)
    s += va_arg(ap, int);
  va_end(ap);
  return s;
}

static double avg_d(int n, ...) {
  va_list ap;
  va_start(ap, n);
  double s = 0;
  for (int i = 0; i < n; i++)
    s += va_arg(ap, double);
  va_end(ap);
  return n ? s / n : 0;
}

int main(void) {
  printf("sum=%ld\n", sum_n(5, 1, 2, 3, 4, 5));
  printf("sum=%ld\n", sum_n(3, -10, 20, 300));
  printf("avg=%.3f\n", avg_d(4, 1.5, 2.5, 3.25, 10.0));
  printf("%5d|%-5d|%05d|%x|%o|%c|%s|%%\n", 42, 42, 42, 255, 8, 'z', "str");
  printf("%e %g %.2f\n", 12345.678, 0.0001234, 3.14159);
  return 0;
}
