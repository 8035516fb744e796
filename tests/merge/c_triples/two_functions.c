/* EDIT_A changes scale(), EDIT_B changes offset(): different functions. */
int scale(int x) {
#ifdef EDIT_A
  int y = x * 7 + 1;
#else
  int y = x * 3;
#endif
  return y - 1;
}

int offset(int x, int d) {
  int r = x + d;
#ifdef EDIT_B
  if (r < 0)
    r = -r;
#endif
  return r * 2;
}

int main(void) { return scale(2) + offset(3, 4); }
