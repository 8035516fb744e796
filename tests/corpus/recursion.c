/* Recursion: fibonacci, ackermann, mutual recursion, gcd. */
#include <stdio.h>

static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

static int ack(int m, int n) {
  if (m == 0) return n + 1;
  if (n == 0) return ack(m - 1, 1);
  return ack(m - 1, ack(m, n - 1));
}

static int is_odd(unsigned n);
static int is_even(unsigned n) { return n == 0 ? 1 : is_odd(n - 1); }
static int is_odd(unsigned n) { return n == 0 ? 0 : is_even(n - 1); }

static unsigned gcd(unsigned a, unsigned b) { return b ? gcd(b, a % b) : a; }

static void hanoi(int n, int from, int to, int via, int *moves) {
  if (n == 0) return;
  hanoi(n - 1, from, via, to, moves);
  (*moves)++;
  hanoi(n - 1, via, to, from, moves);
}

int main(void) {
  printf("fib(20)=%d\n", fib(20));
  printf("ack(2,3)=%d\n", ack(2, 3));
  printf("even(77)=%d odd(77)=%d\n", is_even(77), is_odd(77));
  printf("gcd=%u\n", gcd(1071, 462));
  int moves = 0;
  hanoi(10, 1, 3, 2, &moves);
  printf("hanoi moves=%d\n", moves);
  return 0;
}
