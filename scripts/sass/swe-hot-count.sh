#!/usr/bin/env bash
# Instructions per cell of the shallow-water shared-face update's hot path,
# from SASS compiled here (no GPU needed): a proxy to compare code changes
# before spending device time. A static count, with the production register
# bounds (FP32 8 blocks of 128, FP64 4): at 48addbe 218 per cell in FP32 and
# 367 in FP64, the latter including the double rate's rarely taken double
# branch (about 40). At f2b6c39 the H100 executed 261 per cell in FP32
# against 234 counted here (strip set-up and the reduction).
#   scripts/sass/swe-hot-count.sh [wet]   wet = 1: the all-wet path (default),
#                                         0: the general path with wet/dry selects
#   KEEP=FILE keeps the disassembly.
# Needs nvcc (CUDA 13), cuobjdump and nvdisasm; the last two come from PyPI
# (nvidia-cuda-cuobjdump, nvidia-cuda-nvdisasm) into $SASS_TOOLS (default
# ~/.cache/tessera/cutools).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
wet=${1:-1}
tools=${SASS_TOOLS:-$HOME/.cache/tessera/cutools}
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
if ! command -v cuobjdump > /dev/null && [[ ! -x $tools/nvidia/cu13/bin/cuobjdump ]]; then
  mkdir -p "$tools"
  pip download -q --no-deps -d "$tools" nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm
  for w in "$tools"/nvidia_cuda_*.whl; do python3 -m zipfile -e "$w" "$tools"; done
  chmod +x "$tools"/nvidia/cu13/bin/*
fi
export PATH=$tools/nvidia/cu13/bin:$PATH
work=$(mktemp -d)
trap '[[ -n ${KEEP:-} ]] && cp "$work"/hot.sass "$KEEP"; rm -rf "$work"' EXIT
# the branch between the wet and the general faces, forced one way
sed "s/if (ts_swe_all_wet(hdry, cur, nxt, nb))/if ($wet)/" "$root/src/swe/kernels/swe_strip.h" > "$work/swe_strip_forced.h"
"$nvcc" -std=c++20 -arch=sm_90 -O3 -I"$work" -I"$root/src" -I"$root/src/swe/kernels" -Xptxas -v -cubin \
  -o "$work/hot.cubin" "$root/scripts/sass/swe_hot.cu" 2>&1 | grep -E "registers|spill" | sed 's/ptxas info    ://'
cuobjdump -sass "$work/hot.cubin" > "$work/hot.sass"
python3 "$root/scripts/sass/loop_count.py" "$work/hot.sass" hot_kIf 4
python3 "$root/scripts/sass/loop_count.py" "$work/hot.sass" hot_kId 4
