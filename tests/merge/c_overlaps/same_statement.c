/* Both sides rewrite the loop body statement differently. */
int total(int n) {
  int s = 0;
  for (int i = 0; i < n; i++) {
#if defined(EDIT_A)
    s += 2 * i;
#elif defined(EDIT_B)
    s -= i;
#else
    s += i;
#endif
  }
  return s;
}

int main(void) { return total(4); }
