/* Bit twiddling, 64-bit arithmetic, unsigned overflow, shifts, selects. */
#include <stdint.h>
#include <stdio.h>

static int popcount32(uint32_t x) {
  int c = 0;
  while (x) {
    x &= x - 1;
    c++;
  }
  return c;
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static uint64_t xorshift(uint64_t *s) {
  uint64_t x = *s;
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  return *s = x;
}

static int32_t sat_add(int32_t a, int32_t b) {
  int64_t r = (int64_t)a + b;
  return r > INT32_MAX ? INT32_MAX : r < INT32_MIN ? INT32_MIN : (int32_t)r;
}

int main(void) {
  uint64_t s = 0x9E3779B97F4A7C15ull;
  int pc = 0;
  uint64_t mix = 0;
  for (int i = 0; i < 100; i++) {
    uint64_t v = xorshift(&s);
    pc += popcount32((uint32_t)v);
    mix ^= rotl(v, i % 63 + 1);
  }
  printf("pc=%d mix=%llu\n", pc, (unsigned long long)mix);
  printf("sat=%d %d %d\n", sat_add(2000000000, 2000000000), sat_add(-2000000000, -2000000000),
         sat_add(5, -9));
  uint8_t b = 250;
  b += 10;
  printf("wrap=%u sh=%d\n", b, -17 >> 2);
  return 0;
}
