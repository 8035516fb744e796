/* Both edits in one function: EDIT_A before the loop, EDIT_B after it. */
int accumulate(int n, int k) {
  int s = 0;
#ifdef EDIT_A
  int bias = k * k;
  s = bias;
#endif
  for (int i = 0; i < n; i++) {
    s += i * k;
    s ^= i;
  }
  int t = s / 3;
#ifdef EDIT_B
  t = t + n - 1;
#endif
  return t;
}

int main(void) { return accumulate(10, 3); }
