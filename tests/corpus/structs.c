/* Structs passed by value and pointer, nested aggregates. */
#include <stdio.h>

struct point { int x, y; };
struct rect { struct point lo, hi; char tag; };

static struct point add(struct point a, struct point b) {
  struct point r = {a.x + b.x, a.y + b.y};
  return r;
}

static int area(const struct rect *r) {
  return (r->hi.x - r->lo.x) * (r->hi.y - r->lo.y);
}

static void grow(struct rect *r, int d) {
  r->lo.x -= d; r->lo.y -= d;
  r->hi.x += d; r->hi.y += d;
  r->tag++;
}

int main(void) {
  struct rect rs[4];
  for (int i = 0; i < 4; i++) {
    struct point a = {i, 2 * i}, b = {3 + i, 5 + i * i};
    rs[i].lo = a;
    rs[i].hi = add(a, b);
    rs[i].tag = 'a' + i;
  }
  int total = 0;
  for (int i = 0; i < 4; i++) {
    grow(&rs[i], i);
    total += area(&rs[i]);
    printf("rect %c area %d\n", rs[i].tag, area(&rs[i]));
  }
  printf("total %d\n", total);
  return 0;
}
