/* One side deletes a call, the other changes its argument. */
void report(int);

int work(int x) {
  int y = x * x;
#if defined(EDIT_A)
#elif defined(EDIT_B)
  report(y + 1000);
#else
  report(y);
#endif
  return y + 1;
}
