# Sourced by the scripts/gpu-*.sh that run on the GPU machine (through the
# device tool): $OUT, the CUDA tools on PATH, NVIDIA's OpenCL driver registered
# with the ICD loader (it is installed there but not registered), and gpu_build.
# The device machine's copy of .git may be older than the tree it runs: put
# TESSERA_COMMIT=<local HEAD> in the command so the build records the right commit.
# A value that is not a hash (a placeholder) would be recorded in every
# result: refused. Write the hash itself into the command: $(git rev-parse
# HEAD) in it runs there, against the stale .git, and passes this check.
if [[ -n ${TESSERA_COMMIT:-} && ! ${TESSERA_COMMIT} =~ ^[0-9a-f]{7,40}$ ]]; then
  echo "TESSERA_COMMIT=${TESSERA_COMMIT}: expected the local HEAD's hexadecimal hash (git rev-parse --short HEAD, run here)" >&2
  exit 2
fi
OUT=${OUT:-/tmp/tessera-out}
mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH
mkdir -p /tmp/icd && echo libnvidia-opencl.so.1 > /tmp/icd/nvidia.icd && export OCL_ICD_VENDORS=/tmp/icd

# gpu_build DIR TARGET...: configures DIR (Release, sm_90; again on every call,
# which is cheap and takes a new TESSERA_COMMIT into the build identity) and
# builds the targets incrementally: a warm machine rebuilds only what changed
# since the last call. The log goes to $OUT/build.log; a failed build ends the
# script. Every script defaults to the same DIR, build/gpu (ignored by git, so
# a warm machine keeps it between calls).
gpu_build() {
  local dir=$1 t0=$SECONDS
  shift
  { cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DTESSERA_CUDA_ARCHITECTURES=90 &&
    cmake --build "$dir" -j"$(nproc)" --target "$@"; } > "$OUT/build.log" 2>&1 ||
    { echo "build FAILED"; tail -30 "$OUT/build.log"; exit 1; }
  echo "build: $((SECONDS - t0)) s"
}
