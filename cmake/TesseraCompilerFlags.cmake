# Reproducible floating point: no implicit contraction into FMA on any backend.
# Kernels that want FMA call ts_fma() explicitly (see docs/ARCHITECTURE.md).
add_library(tessera_flags INTERFACE)
target_compile_options(tessera_flags INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -ffp-contract=off>
  $<$<COMPILE_LANGUAGE:CUDA>:--fmad=false --expt-relaxed-constexpr -Xcompiler=-ffp-contract=off -lineinfo>)
