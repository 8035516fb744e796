#include <cstdio>
#include <stdexcept>
#include <vector>
#include <string>
struct R { int v; R(int x):v(x){} ~R(){ std::printf("dtor %d\n", v); } };
int f(int x) { R r(x); if (x > 2) throw std::runtime_error("big"); return x * 2; }
int main() {
  std::vector<std::string> names = {"a", "bb", "ccc"};
  int total = 0;
  for (int i = 0; i < 5; i++) {
    try { total += f(i); } catch (const std::exception &e) { std::printf("caught %s %d\n", e.what(), i); total -= 1; }
  }
  for (auto &n : names) total += n.size();
  std::printf("total %d\n", total);
  return 0;
}
