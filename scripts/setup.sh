#!/usr/bin/env bash
# Installs what irgit needs from Debian's packages: LLVM 22 (library, tools,
# clang), Csmith (for the test corpus), Chromium (headless, the tests of
# `irgit diff --html`) and cmark-gfm (GitHub's Markdown, the tests of
# `irgit diff --markdown`). apt-get leaves installed packages alone.
set -euo pipefail
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
$SUDO apt-get update
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y \
  llvm-22-dev libpolly-22-dev libzstd-dev zlib1g-dev llvm-22 llvm-22-tools clang-22 csmith libcsmith-dev chromium cmark-gfm
