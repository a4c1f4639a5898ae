#!/usr/bin/env bash
# Checks that every tracked C, C++, CUDA and OpenCL file follows .clang-format
# (clang-format 14, the Debian package clang-format-14: other versions lay
# some constructs out differently). Exit 1 naming the files that do not;
# `scripts/check-format.sh --fix` rewrites them (white space only: the style
# sorts no includes and reflows no comments).
set -euo pipefail
cd "$(dirname "$0")/.."
cf=$(command -v clang-format-14 || true)
[[ -n $cf ]] || { echo "check-format: clang-format-14 not found (scripts/install-deps.sh installs it)"; exit 1; }
mapfile -t files < <(git ls-files '*.cpp' '*.hpp' '*.h' '*.cu' '*.cuh' '*.cl' '*.inc')
((${#files[@]})) || { echo "check-format: no files (not a git checkout?)"; exit 1; }
if [[ ${1:-} == --fix ]]; then "$cf" -i "${files[@]}"; exit 0; fi
bad=()
for f in "${files[@]}"; do
  "$cf" --dry-run -Werror "$f" > /dev/null 2>&1 || bad+=("$f")
done
if ((${#bad[@]})); then
  echo "check-format: ${#bad[@]} file(s) differ from .clang-format (scripts/check-format.sh --fix):"
  printf '  %s\n' "${bad[@]}"
  exit 1
fi
echo "check-format: ${#files[@]} files follow .clang-format"
