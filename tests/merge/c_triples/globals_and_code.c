/* EDIT_A changes a global table, EDIT_B adds a statement that uses a global. */
static int table[4] = {1, 2, 3, 4};
int counter = 0;

int lookup(int i) {
  counter++;
#ifdef EDIT_B
  counter += i;
#endif
  return table[i & 3];
}

#ifdef EDIT_A
int limit = 100;
#else
int limit = 10;
#endif

int main(void) { return lookup(limit) + counter; }
