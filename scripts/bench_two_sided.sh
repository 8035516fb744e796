#!/bin/sh
# The cost of `git diff` as installed (`irgit diff --smallest`, git's
# external diff) against the two textconv calls it replaces, on one change
# of one file: FILE.c (default tests/corpus/structs.c) compiled by clang-22
# at -O2 -g, one constant changed.
#
#   scripts/bench_two_sided.sh [FILE.c] [RUNS]   (needs target/release built)
#
# Prints, per setting, the best wall time of RUNS runs (default 10):
#   textconv x2   `irgit-textconv old; irgit-textconv new` (what git runs for `git log -p`)
#   smallest      `irgit-textconv diff --smallest` with git's 7 arguments (what git diff runs)
#   git alone     `git diff --no-index` of the two files as written
# cold: irgit's textconv cache emptied and no server before each run; warm:
# both kept. The ratio smallest / textconv x2 is the figure BENCHMARKS.md keeps.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
src=$(cd "$(dirname "${1:-$here/tests/corpus/structs.c}")" && pwd)/$(basename "${1:-structs.c}")
runs=${2:-10}
export PATH="$here/target/release:$PATH"
tmp=$(mktemp -d)
export IRGIT_SERVER_DIR="$tmp/servers"
stop_servers() {
    pkill -f "irgit textconv-server" -U "$(id -u)" 2>/dev/null || true
}
trap 'stop_servers; rm -rf "$tmp"' EXIT
cd "$tmp"
git init -q repo && cd repo
clang-22 -O2 -g -S -emit-llvm -o old.ll "$src"
# One constant changed: the first `, 1` of an instruction becomes `, 3`.
sed '0,/ i32 1$/s// i32 3/' old.ll > new.ll
irgit install >/dev/null
best() { # best wall time in ms of "$@" over $runs runs, $cold=1 empties caches
    b=""
    i=0
    while [ $i -lt "$runs" ]; do
        if [ "$cold" = 1 ]; then rm -rf .git/irgit/textconv-cache; stop_servers; fi
        s=$(date +%s%N)
        "$@" >/dev/null 2>&1
        e=$(date +%s%N)
        t=$(( (e - s) / 1000000 ))
        if [ -z "$b" ] || [ "$t" -lt "$b" ]; then b=$t; fi
        i=$((i + 1))
    done
    echo "$b"
}
textconv_twice() { irgit-textconv old.ll; irgit-textconv new.ll; }
zero=0000000000000000000000000000000000000000
smallest() { irgit-textconv diff --smallest new.ll old.ll $zero 100644 new.ll $zero 100644; }
git_alone() { git diff --no-index --no-ext-diff --no-textconv old.ll new.ll || true; }
lines=$(wc -l < old.ll)
for cold in 1 0; do
    label=warm
    [ "$cold" = 1 ] && label=cold
    t=$(best textconv_twice)
    s=$(best smallest)
    g=$(best git_alone)
    ratio=$(awk "BEGIN { printf \"%.2f\", $s / ($t > 0 ? $t : 1) }")
    echo "$label ($lines lines): textconv x2 ${t} ms, smallest ${s} ms, git alone ${g} ms; smallest / textconv x2 = ${ratio}"
done
