#!/usr/bin/env bash
# irgit end to end, offline, in a temporary repository:
#   1. `git diff` of two compiler runs, without and with irgit;
#   2. a merge of two branches of a lit test (RUN/CHECK lines, notes),
#      clean, in ours' text, and `lit` passes on the result.
# Needs what scripts/setup.sh installs (LLVM 22, clang-22, lit).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
BIN="$PWD/target/release"
LLVM_BIN=/usr/lib/llvm-22/bin
LIT_CFG="$PWD/tests/lit/lit.cfg.py"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
export PATH="$BIN:$PATH"
export GIT_CONFIG_GLOBAL="$WORK/gitconfig" GIT_CONFIG_NOSYSTEM=1
git config --global user.name demo
git config --global user.email demo@example.com
git config --global init.defaultBranch main
cd "$WORK"
git init -q repo
cd repo

say() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
# The +/- lines of a patch on stdin, file headers left out.
changed() { grep -E '^[-+]' | grep -cvE '^(---|\+\+\+) '; }

say "1. Two compiler runs of one function: the second adds a line to the source"
cat > sum.c <<'EOF'
int sum(int *a, int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s += a[i];
  return s;
}
EOF
clang-22 -O0 -S -emit-llvm -o sum.ll sum.c
git add sum.ll && git commit -qm "compiler run 1"
sed -i 's/  int s = 0;/  int s = 0;\n  if (n < 0) return -1;/' sum.c
clang-22 -O0 -S -emit-llvm -o sum.ll sum.c
say "git diff without irgit: every %N below the new check is renumbered"
git --no-pager diff --stat
git_alone=$(git --no-pager diff | changed)
echo "changed lines: $git_alone"
irgit install --hook >/dev/null
say "git diff with irgit (the smaller of git's diff and the views' diff; here the views')"
git --no-pager diff | sed -n '/^@@/,$p'
echo "changed lines: $(git --no-pager diff | changed) (git alone: $git_alone)"
say "irgit diff: what changed, function by function"
irgit diff HEAD -- sum.ll
git checkout -q sum.ll

say "2. A lit test, edited on two branches"
mkdir test
cp "$LIT_CFG" test/
cat > test/fold.ll <<'EOF'
; RUN: opt -S -passes=instcombine %s | FileCheck %s
; instcombine folds on small integer functions.

define i32 @add_zero(i32 %x) {
; CHECK-LABEL: @add_zero(
; CHECK-NEXT:  entry:
; CHECK-NEXT:    ret i32 [[X:%.*]]
;
entry:
  %a = add i32 %x, 0 ; folds to %x
  ret i32 %a
}
EOF
git add test && git commit -qm "a lit test"
git checkout -q -b theirs
cat >> test/fold.ll <<'EOF'

define i32 @or_zero(i32 %x) {
; CHECK-LABEL: @or_zero(
; CHECK-NEXT:  entry:
; CHECK-NEXT:    ret i32 [[X:%.*]]
;
entry:
  %o = or i32 %x, 0
  ret i32 %o
}
EOF
git commit -qam "theirs: test or x, 0"
git checkout -q main
sed -i 's/  %a = add i32 %x, 0 ; folds to %x/  %a = xor i32 %x, 0 ; xor with 0 folds too/' test/fold.ll
cat >> test/fold.ll <<'EOF'

define i32 @sub_self(i32 %x) {
; CHECK-LABEL: @sub_self(
; CHECK-NEXT:  entry:
; CHECK-NEXT:    ret i32 0
;
entry:
  %s = sub i32 %x, %x ; always zero
  ret i32 %s
}
EOF
git commit -qam "ours: xor, test x - x"
say "git merge theirs (irgit is the merge driver; the hook keeps lit tests as written)"
git merge --no-edit theirs
say "the merged test: ours' text with theirs' function"
cat test/fold.ll
say "lit on the merged test"
"$LLVM_BIN/lit" -q --param exec_root="$WORK/lit-out" test
echo "lit: all tests passed"
