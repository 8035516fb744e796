#!/usr/bin/env bash
# Installs LLVM 22 (library, tools, clang) and Csmith from Debian's packages.
# Safe to run again: apt skips what is already there.
set -euo pipefail
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
if ! dpkg -s llvm-22-dev clang-22 llvm-22 csmith libcsmith-dev >/dev/null 2>&1; then
  $SUDO apt-get update
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y \
    llvm-22-dev libpolly-22-dev libzstd-dev zlib1g-dev llvm-22 clang-22 csmith libcsmith-dev
fi
