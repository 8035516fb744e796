/* EDIT_A changes the loop step, EDIT_B adds a check at the start of another function. */
unsigned hash(const char *s) {
  unsigned h = 5381;
  while (*s) {
#ifdef EDIT_A
    h = h * 31 + (unsigned char)*s++;
#else
    h = h * 33 + (unsigned char)*s++;
#endif
  }
  return h;
}

int clamp(int v, int lo, int hi) {
#ifdef EDIT_B
  if (lo > hi)
    return lo;
#endif
  if (v < lo)
    return lo;
  if (v > hi)
    return hi;
  return v;
}

int main(void) { return (int)(hash("abc") & 7) + clamp(5, 0, 3); }
