/* EDIT_A adds a switch case, EDIT_B changes the loop in another function. */
int op(int code, int a, int b) {
  switch (code) {
  case 0:
    return a + b;
  case 1:
    return a - b;
#ifdef EDIT_A
  case 2:
    return a * b;
#endif
  default:
    return 0;
  }
}

int sum(const int *v, int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
#ifdef EDIT_B
    s += v[i] > 0 ? v[i] : 0;
#else
    s += v[i];
#endif
  return s;
}

int main(void) {
  int v[3] = {1, -2, 3};
  return op(1, sum(v, 3), 2);
}
