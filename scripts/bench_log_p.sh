#!/bin/sh
# `git log -p` over a 200-commit history of one LLVM IR file, with irgit's
# diff driver as installed today (irgit-textconv, its resident server and
# irgit's own cache), without the server (`textconv.server_idle_seconds: 0`)
# and as installed before (`irgit textconv`, git's textconv cache on).
#
#   scripts/bench_log_p.sh [COMMITS]      (needs irgit and irgit-textconv built in target/release)
#   scripts/bench_log_p.sh --history GIT_DIR PATHSPEC
#
# The history: tests/corpus/structs.c compiled by clang-22 -O0, one constant
# changed per commit; with --history, a clone of the repository GIT_DIR (a
# mirror of a project that keeps IR in git) and `git log -p -- PATHSPEC`.
# Each figure is the best of 3 runs, first the cold run (empty caches, no
# server running), then warm ones.
set -eu
history=""
if [ "${1:-}" = "--history" ]; then
    history=$2
    pathspec=$3
    commits=0
else
    commits=${1:-200}
    pathspec=.
fi
here=$(cd "$(dirname "$0")/.." && pwd)
export PATH="$here/target/release:$PATH"
tmp=$(mktemp -d)
# The resident servers of this run, ended when it ends.
export IRGIT_SERVER_DIR="$tmp/servers"
stop_servers() {
    for pidfile in "$IRGIT_SERVER_DIR"/*.pid; do
        [ -e "$pidfile" ] || continue
        pid=$(cat "$pidfile")
        kill "$pid" 2>/dev/null || true
        while kill -0 "$pid" 2>/dev/null; do sleep 0.05; done
    done
}
trap 'stop_servers; rm -rf "$tmp"' EXIT
export HOME="$tmp/home" GIT_CONFIG_NOSYSTEM=1 GIT_PAGER=cat
mkdir -p "$HOME"
if [ -n "$history" ]; then
    git clone -q --bare "$history" "$tmp/repo/.git"
    git -C "$tmp/repo/.git" config core.bare false
else
    mkdir -p "$tmp/repo"
    git -C "$tmp/repo" init -q -b main
fi
cd "$tmp/repo"
git config user.name bench
git config user.email bench@example.com
irgit install >/dev/null
i=0
while [ "$i" -lt "$commits" ]; do
    { cat "$here/tests/corpus/structs.c"; echo "int bench_knob(int x) { return x * $((i + 3)); }"; } > m.c
    clang-22 -S -emit-llvm -O0 -o m.ll m.c
    git add m.ll
    git commit -q -m "commit $i"
    i=$((i + 1))
done
rm -f m.c

best_of_3() { # prints the best wall time of `git log -p` in ms
    best=""
    for _ in 1 2 3; do
        start=$(date +%s%N)
        git log -p -- "$pathspec" >/dev/null 2>&1
        ms=$((($(date +%s%N) - start) / 1000000))
        if [ -z "$best" ] || [ "$ms" -lt "$best" ]; then best=$ms; fi
    done
    echo "$best"
}
cold() {
    start=$(date +%s%N)
    git log -p -- "$pathspec" >/dev/null 2>&1
    echo $((($(date +%s%N) - start) / 1000000))
}

stop_servers
rm -rf .git/irgit/textconv-cache
new_cold=$(cold)
new_warm=$(best_of_3)
rm -rf .git/irgit/textconv-cache
server_up=$(cold)

stop_servers
printf 'textconv:\n  server_idle_seconds: 0\n' > .irgit.yaml
rm -rf .git/irgit/textconv-cache
own_cold=$(cold)
own_warm=$(best_of_3)
rm .irgit.yaml

git config diff.llvm-ir.textconv "irgit textconv --canon-version=old"
git config diff.llvm-ir.cachetextconv true
rm -rf .git/irgit/textconv-cache
old_cold=$(cold)
old_warm=$(best_of_3)

# The floor of any textconv that git runs per blob: `cat` (one process each).
git config diff.llvm-ir.textconv cat
git config diff.llvm-ir.cachetextconv false
floor=$(best_of_3)

git config --unset diff.llvm-ir.textconv
plain=$(best_of_3)

if [ -n "$history" ]; then
    shown=$(git log -p --no-textconv --format= -- "$pathspec" | grep -c '^diff --git')
    echo "git log -p -- $pathspec in $(basename "$(dirname "$history")"): $shown file changes"
else
    echo "git log -p, $commits commits of m.ll ($(wc -l < m.ll) lines)"
fi
echo "  irgit-textconv, server, irgit's cache: cold $new_cold ms, warm $new_warm ms"
echo "    (cache empty, server already up: $server_up ms)"
echo "  irgit-textconv, no server:       cold $own_cold ms, warm $own_warm ms"
echo "  irgit textconv, git's cache:     cold $old_cold ms, warm $old_warm ms"
echo "  cat as textconv (process floor):  $floor ms"
echo "  no textconv (raw diff):          $plain ms"
