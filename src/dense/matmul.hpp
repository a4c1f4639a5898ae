// Memory-hierarchy kernels of the OpenCL optimisation lecture, on any device:
// vector addition (global memory vs. staging through local/shared memory) and
// the dense matrix product C = A*B (naive, tiled, register-blocked, vendor).
// Operands live on one device; sizes are checked (violations throw Error).
// See docs/dense.md for the equations, the variants and the validation.
#pragma once
#include <cstddef>
#include <string_view>

#include "core/buffer.hpp"

namespace tessera::dense {

/// How vector_add moves its operands (on the CPU every variant is one loop).
///  global:        one work-item per element, straight from global memory.
///  local_static:  each work-group stages its slice of a and b through
///                 __local / __shared__ arrays of a compile-time size.
///  local_dynamic: the same with the local arrays sized at launch
///                 (__local kernel argument / extern __shared__).
enum class VecAddVariant { global, local_static, local_dynamic };

/// How matmul computes C = A*B (row-major A: m x k, B: k x n, C: m x n).
///  naive:            one work-item per element of C, operands from global memory.
///  tiled:            TS_TILE x TS_TILE tiles of A and B through local memory
///                    (TS_TILE = 16 as in the lecture).
///  register_blocked: 128 x 128 blocks per work-group, 8 x 8 elements of C per
///                    work-item in registers, 16-byte loads where aligned.
///  vendor:           cuBLAS (CUDA devices built with cuBLAS only), no TF32.
/// On the CPU backend naive is the plain triple loop and tiled and
/// register_blocked are one cache-blocked OpenMP loop nest. All variants but
/// vendor give bitwise identical results on every backend (matmul_point.h).
enum class MatmulVariant { naive, tiled, register_blocked, vendor };

std::string_view to_string(VecAddVariant v) noexcept;
std::string_view to_string(MatmulVariant v) noexcept;

/// c = a + b (all three of one size, on one device).
template <class T>
void vector_add(const Buffer<T>& a, const Buffer<T>& b, Buffer<T>& c,
                VecAddVariant v = VecAddVariant::global);

/// C = A*B. A holds m*k, B k*n and C m*n elements (row-major); C must be a
/// buffer distinct from A and B. k == 0 gives C = 0.
/// Throws Error on size or device mismatch, UsageError when `v` is not
/// available on the device (see matmul_available).
template <class T>
void matmul(const Buffer<T>& A, const Buffer<T>& B, Buffer<T>& C, std::size_t m, std::size_t k,
            std::size_t n, MatmulVariant v = MatmulVariant::register_blocked);

/// Whether `v` runs on `device` (vendor needs a CUDA device and cuBLAS).
bool matmul_available(MatmulVariant v, const Device& device) noexcept;

/// The tile edge of the tiled variant (a compile-time constant, TS_TILE).
int matmul_tile() noexcept;

}  // namespace tessera::dense
