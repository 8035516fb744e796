/* Both sides change the same multiplier to different values. */
int scale(int x) {
#if defined(EDIT_A)
  return x * 4 + 1;
#elif defined(EDIT_B)
  return x * 5 + 1;
#else
  return x * 3 + 1;
#endif
}

int main(void) { return scale(2); }
