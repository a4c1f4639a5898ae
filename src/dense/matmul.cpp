// Front end of the memory-hierarchy kernels: argument checks, the empty and
// k == 0 cases, and dispatch to the backend's launcher (or cuBLAS).
#include "dense/matmul.hpp"

#include <cstdint>

#include <fmt/format.h>

#include "core/enum_names.hpp"
#include "core/for_each_real.hpp"
#include "dense/dense.hpp"
#include "dense/kernels/matmul_kernels.hpp"
#include "dense/kernels/dense_kernels.hpp"
#include "tessera/config.hpp"

namespace tessera::dense {

namespace {
constexpr std::array<std::string_view, 3> kVecAddNames{"global", "local_static", "local_dynamic"};
static_assert(kVecAddNames.size() == std::size_t(VecAddVariant::local_dynamic) + 1);
constexpr std::array<std::string_view, 4> kMatmulNames{"naive", "tiled", "register_blocked",
                                                       "vendor"};
static_assert(kMatmulNames.size() == std::size_t(MatmulVariant::vendor) + 1);
}  // namespace

std::string_view to_string(VecAddVariant v) noexcept {
  return enum_name(v, kVecAddNames, kVecAddNames.back());
}
std::string_view to_string(MatmulVariant v) noexcept {
  return enum_name(v, kMatmulNames, kMatmulNames.back());
}

bool matmul_available(MatmulVariant v, const Device& device) noexcept {
  if (v != MatmulVariant::vendor) return true;
  return TESSERA_HAVE_CUBLAS && device.backend() == Backend::cuda;
}

int matmul_tile() noexcept { return kernels::kMatmulTile; }

namespace {

void same_device(const char* op, const Device& a, const Device& b) {
  if (&a != &b)
    throw Error(
        fmt::format("dense::{}: operands live on different devices ({}, {})", op, a.id(), b.id()));
}

// `name` must hold rows*cols elements; says which dimensions disagree.
void check_operand(const char* name, std::size_t have, std::size_t rows, std::size_t cols,
                   const char* dims) {
  std::size_t need = 0;
  if (__builtin_mul_overflow(rows, cols, &need))
    throw Error(fmt::format("dense::matmul: {} = {} x {} elements overflows", dims, rows, cols));
  if (have != need)
    throw Error(fmt::format("dense::matmul: {} holds {} elements, but {} = {} x {} = {} are needed",
                            name, have, dims, rows, cols, need));
}

// Kernels index rows and columns in int and round them up to whole blocks.
constexpr std::size_t kMaxDimension = (std::size_t(1) << 31) - 1024;

}  // namespace

template <class T>
void vector_add(const Buffer<T>& a, const Buffer<T>& b, Buffer<T>& c, VecAddVariant v) {
  same_device("vector_add", a.device(), c.device());
  same_device("vector_add", b.device(), c.device());
  if (a.size() != c.size() || b.size() != c.size())
    throw Error(fmt::format("dense::vector_add: size mismatch (a {}, b {}, c {} elements)",
                            a.size(), b.size(), c.size()));
  if (c.empty()) return;
  const ts_size n = c.size(), groups = (n + TS_VA_GROUP - 1) / TS_VA_GROUP;
  dispatch(c.device(), [&](auto tag) {
    Queue& q = c.device().queue();
    switch (v) {
      case VecAddVariant::global:
        return kernels::vecadd_global<T>(tag, q, groups, n, a, b, c);
      case VecAddVariant::local_static:
        return kernels::vecadd_local_static<T>(tag, q, groups, n, a, b, c);
      case VecAddVariant::local_dynamic:
        return kernels::vecadd_local_dynamic<T>(tag, q, {groups, 2 * TS_VA_GROUP}, n, a, b, c);
    }
  });
}

template <class T>
void matmul(const Buffer<T>& A, const Buffer<T>& B, Buffer<T>& C, std::size_t m, std::size_t k,
            std::size_t n, MatmulVariant v) {
  check_operand("A", A.size(), m, k, "m x k");
  check_operand("B", B.size(), k, n, "k x n");
  check_operand("C", C.size(), m, n, "m x n");
  same_device("matmul", A.device(), C.device());
  same_device("matmul", B.device(), C.device());
  // Kernels read A and B while writing C: an aliased C would be overwritten mid-product.
  if (&C == &A || &C == &B) throw Error("dense::matmul: C must be a buffer distinct from A and B");
  if (m > kMaxDimension || k > kMaxDimension || n > kMaxDimension)
    throw Error(fmt::format("dense::matmul: dimensions {} x {} x {} exceed the kernels' limit {}",
                            m, k, n, kMaxDimension));
  if (!matmul_available(v, C.device()))
    throw UsageError(fmt::format(
        "dense::matmul: the {} variant is not available on {} (it needs a CUDA device and a "
        "build with cuBLAS)",
        to_string(v), C.device().id()));
  if (m == 0 || n == 0) return;
  if (k == 0) {  // an empty sum: C = 0
    fill(C, T(0));
    return;
  }
  const kernels::MatmulShape s{static_cast<int>(m), static_cast<int>(k), static_cast<int>(n)};
  Queue& q = C.device().queue();
  if (v == MatmulVariant::vendor) {
#if TESSERA_HAVE_CUBLAS
    kernels::matmul_vendor(CudaTag{}, q, A, B, C, s);
#endif
    return;
  }
  // A work-group per tile of C (numbered as matmul_point.h says).
  // The kernels number groups in int (matmul_point.h): refuse more than that
  // rather than wrap (unreachable while C fits a device's memory).
  auto tiles = [&](std::size_t rows, std::size_t cols) {
    const std::size_t groups = ((m + rows - 1) / rows) * ((n + cols - 1) / cols);
    if (groups > std::size_t(INT32_MAX))
      throw Error(
          fmt::format("dense::matmul: {} x {} needs {} work-groups of {} x {}, more than {}", m, n,
                      groups, rows, cols, INT32_MAX));
    return groups;
  };
  const ts_size edge = kernels::kMatmulTile;
  dispatch(C.device(), [&](auto tag) {
    switch (v) {
      case MatmulVariant::naive:
        return kernels::matmul_naive<T>(tag, q, tiles(edge, edge), s.m, s.k, s.n, A, B, C);
      case MatmulVariant::tiled:
        return kernels::matmul_tiled<T>(tag, q, tiles(edge, edge), s.m, s.k, s.n, A, B, C);
      default: {
        // 16-byte accesses need every row of A, B and C to start on a pack.
        const ts_size pack = launch::pack_width<T>(C.device());
        const bool vec = k % pack == 0 && n % pack == 0;
        // a 2D grid of tiles, as ac2f681 launched it: numbered as the 1D one,
        // it ran 1.05x (CUDA) and 1.11x (NVIDIA OpenCL) as long in float at
        // 8192 (issue 41's A/B; the naive kernel's probe found 2D and 1D grids
        // of one numbering up to 1.24x apart); 1D past CUDA's 65535 rows
        const ts_size col_tiles = (n + TS_MM_BN - 1) / TS_MM_BN, groups = tiles(TS_MM_BM, TS_MM_BN);
        const launch::Groups shape = groups / col_tiles <= 65535
                                         ? launch::Groups::grid(col_tiles, groups / col_tiles, 1)
                                         : launch::Groups(groups);
        if (vec) return kernels::matmul_rb_vec<T>(tag, q, shape, s.m, s.k, s.n, A, B, C);
        return kernels::matmul_rb_any<T>(tag, q, shape, s.m, s.k, s.n, A, B, C);
      }
    }
  });
}

#define TS_INSTANTIATE(T)                                                                     \
  template void vector_add<T>(const Buffer<T>&, const Buffer<T>&, Buffer<T>&, VecAddVariant); \
  template void matmul<T>(const Buffer<T>&, const Buffer<T>&, Buffer<T>&, std::size_t,        \
                          std::size_t, std::size_t, MatmulVariant);
TS_FOR_EACH_REAL(TS_INSTANTIATE)
#undef TS_INSTANTIATE

}  // namespace tessera::dense
