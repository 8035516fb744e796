/* EDIT_A adds a helper and calls it from main; EDIT_B changes area(). */
struct rect { int w, h; };

int area(struct rect r) {
#ifdef EDIT_B
  if (r.w < 0 || r.h < 0)
    return 0;
#endif
  return r.w * r.h;
}

#ifdef EDIT_A
int perimeter(struct rect r) { return 2 * (r.w + r.h); }
#endif

int main(void) {
  struct rect r = {3, 4};
  int a = area(r);
#ifdef EDIT_A
  a += perimeter(r);
#endif
  return a;
}
