/* Strings: manual strlen/reverse, counting, simple hashing, string table. */
#include <stdio.h>
#include <string.h>

static int my_strlen(const char *s) {
  int n = 0;
  while (s[n])
    n++;
  return n;
}

static void reverse(char *s) {
  int n = my_strlen(s);
  for (int i = 0, j = n - 1; i < j; i++, j--) {
    char t = s[i];
    s[i] = s[j];
    s[j] = t;
  }
}

static unsigned djb2(const char *s) {
  unsigned h = 5381;
  while (*s)
    h = h * 33 + (unsigned char)*s++;
  return h;
}

static int count_vowels(const char *s) {
  int c = 0;
  for (; *s; s++)
    if (strchr("aeiouAEIOU", *s))
      c++;
  return c;
}

int main(void) {
  const char *words[] = {"canonical", "intermediate", "representation", "merge", "git"};
  char buf[64];
  for (int i = 0; i < 5; i++) {
    strcpy(buf, words[i]);
    reverse(buf);
    printf("%s -> %s len=%d vowels=%d hash=%u\n", words[i], buf, my_strlen(buf),
           count_vowels(buf), djb2(words[i]));
  }
  printf("cmp=%d\n", strcmp(words[0], words[3]) > 0);
  return 0;
}
