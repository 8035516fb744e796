/* if/else in one function: EDIT_A edits the then-branch, EDIT_B the else-branch. */
int classify(int x, int y) {
  int r;
  if (x > y) {
    r = x - y;
#ifdef EDIT_A
    r = r * 2 + y;
#endif
  } else {
    r = y - x;
#ifdef EDIT_B
    r = r / 2;
    r += x;
#endif
  }
  return r + 1;
}

int main(void) { return classify(5, 9); }
