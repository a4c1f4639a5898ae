// The AMG cycle on a device (preconditioner.hpp).
#include "amg/preconditioner.hpp"

#include <fmt/format.h>

#include <chrono>

#include "core/dispatch.hpp"
#include "core/error.hpp"
#include "krylov/kernels/krylov_kernels.hpp"
#include "sparse/kernel_choice.hpp"

namespace tessera::amg {

namespace {
template <Scalar V>
std::shared_ptr<sparse::DeviceMatrix<V>> upload_matrix(const std::shared_ptr<Device>& dev,
                                                       const Csr<V>& m) {
  const auto kc = sparse::choose_kernel(m, dev->backend());
  return std::make_shared<sparse::DeviceMatrix<V>>(dev, m, kc.kernel, kc.options);
}

template <Scalar V>
V real_value(double v) {
  return V(static_cast<sparse::real_t<V>>(v));
}
}  // namespace

template <Scalar V>
Amg<V>::Amg(std::shared_ptr<Device> device, const Csr<V>& a, const Options& o,
            const Nullspace<V>& b)
    : device_(std::move(device)), o_(o) {
  if (o_.block == 0) o_.block = 1;
  o_.smoother = resolve_smoother(o_.smoother, device_->info().is_gpu);
  // aggregation and products on a GPU, on the host otherwise (the same bits
  // either way; a CPU's OpenCL runs the device's per-row sort slower than
  // the host's)
  h_ = build_hierarchy(a, o_, b, device_->info().is_gpu ? device_ : nullptr);
  upload();
}

template <Scalar V>
Amg<V>::Amg(std::shared_ptr<Device> device, Hierarchy<V> h, const Options& o)
    : device_(std::move(device)), h_(std::move(h)), o_(o) {
  o_.smoother = resolve_smoother(o_.smoother, device_->info().is_gpu);
  o_.check();
  if (h_.levels.empty()) throw Error("amg: an empty hierarchy");
  for (std::size_t l = 0; l + 1 < h_.levels.size(); ++l)
    if (o_.smoother == Smoother::gauss_seidel && h_.levels[l].color_start.size() < 2 &&
        h_.levels[l].a.rows > 0)
      throw Error(fmt::format(
          "amg: level {} of the hierarchy has no Gauss-Seidel colours: it was built for another "
          "smoother (build it with the options it is run with)",
          l));
  upload();
}

template <Scalar V>
void Amg<V>::upload() {
  const auto t0 = std::chrono::steady_clock::now();
  levels_.clear();
  levels_.resize(h_.levels.size());
  for (std::size_t l = 0; l < h_.levels.size(); ++l) {
    const Level<V>& hl = h_.levels[l];
    DeviceLevel& d = levels_[l];
    const auto n = static_cast<std::size_t>(hl.a.rows);
    d.rho = hl.rho;
    d.block = hl.block;
    d.x = Buffer<V>(device_, n);
    d.b = Buffer<V>(device_, n);
    d.res = Buffer<V>(device_, n);
    d.tmp = Buffer<V>(device_, n);
    d.ops = std::make_unique<krylov::DeviceVectorOps<V>>(device_, n, 1);
    if (l + 1 == h_.levels.size()) break;  // the coarsest: only the dense inverse
    d.a = upload_matrix(device_, hl.a);
    d.p = upload_matrix(device_, hl.p);
    d.r = upload_matrix(device_, hl.r);
    d.dinv = Buffer<V>(device_, hl.dinv.size());
    d.dinv.copy_from_host(hl.dinv);
    if (o_.smoother == Smoother::chebyshev) d.dir = Buffer<V>(device_, n);
    if (o_.smoother == Smoother::gauss_seidel) {
      // at least one element each: a kernel argument must be a valid buffer
      auto put = [&](auto& buf, const auto& host) {
        using T = typename std::decay_t<decltype(host)>::value_type;
        buf = Buffer<T>(device_, std::max<std::size_t>(host.size(), 1));
        if (!host.empty()) buf.copy_from_host(host);
      };
      put(d.gs_ptr, hl.offdiag.row_ptr);
      put(d.gs_col, hl.offdiag.col);
      put(d.gs_val, hl.offdiag.val);
      put(d.gs_inv_diag, hl.inv_point_diag);
      put(d.gs_rows, hl.color_nodes);
      d.color_start = hl.color_start;
    }
  }
  const auto& last = h_.levels.back().a;
  const auto n = static_cast<std::size_t>(last.rows);
  Csr<V> dense;
  dense.rows = dense.cols = last.rows;
  dense.row_ptr.resize(n + 1);
  dense.col.resize(n * n);
  dense.val = h_.coarse_inverse;
  for (std::size_t i = 0; i < n; ++i) {
    dense.row_ptr[i + 1] =
        sparse::to_index(static_cast<sparse::size64>((i + 1) * n), "coarse inverse entries");
    for (std::size_t j = 0; j < n; ++j) dense.col[i * n + j] = static_cast<index_t>(j);
  }
  coarse_ = upload_matrix(device_, dense);
  device_->queue().synchronize();
  upload_s_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

template <Scalar V>
void Amg<V>::apply(const Buffer<V>& b, Buffer<V>& x) {
  run(0, b, x, true);
}

template <Scalar V>
void Amg<V>::cycle(const Buffer<V>& b, Buffer<V>& x) {
  run(0, b, x, false);
}

// r = b - A x
template <Scalar V>
void Amg<V>::residual(std::size_t l, const Buffer<V>& b, const Buffer<V>& x, Buffer<V>& r) {
  DeviceLevel& d = levels_[l];
  sparse::spmv(*d.a, x, d.tmp);
  const V minus_one(-1);
  d.ops->combine(r, 0, V(1), &b, 0, &d.tmp, 0, 1, &minus_one);
}

// One Gauss-Seidel sweep: x_i = (b_i - sum_{j != i} a_ij x_j) / a_ii for the
// rows of each colour at once, a work-item per row (krylov's tri_rows, a
// colour a level of a triangular solve; ILU(0)'s tri_group, a 32-wide
// work-group per row, made this 9x slower than Jacobi on an H100).
template <Scalar V>
void Amg<V>::gauss_seidel(std::size_t l, const Buffer<V>& b, Buffer<V>& x, bool forward) {
  using R = sparse::real_t<V>;
  constexpr int nc = sparse::is_complex_v<V> ? 2 : 1;
  DeviceLevel& d = levels_[l];
  Device& dv = *device_;
  const std::size_t colors = d.color_start.size() - 1, n = x.size();
  dispatch(dv, [&](auto tag) {
    for (std::size_t k = 0; k < colors; ++k) {
      const std::size_t c = forward ? k : colors - 1 - k;
      const auto first = static_cast<std::size_t>(d.color_start[c]);
      krylov::kernels::tri_rows(
          tag, dv.queue(), nc, static_cast<std::size_t>(d.color_start[c + 1]) - first, n,
          krylov::kernels::in<int>(dv, d.gs_rows.handle(), first), launch::In<int>(d.gs_ptr),
          launch::In<int>(d.gs_col), krylov::kernels::in<R>(dv, d.gs_val.handle()),
          krylov::kernels::in<R>(dv, d.gs_inv_diag.handle()),
          krylov::kernels::in<R>(dv, b.handle()), krylov::kernels::out<R>(dv, x.handle()));
    }
  });
}

template <Scalar V>
void Amg<V>::smooth(std::size_t l, const Buffer<V>& b, Buffer<V>& x, bool zero_guess, int sweeps,
                    bool forward) {
  DeviceLevel& d = levels_[l];
  auto& ops = *d.ops;
  const int bs = d.block;
  if (d.rho <= 0) return;  // an operator without entries: nothing to smooth
  for (int s = 0; s < sweeps; ++s, zero_guess = false) {
    if (o_.smoother == Smoother::gauss_seidel) {
      if (zero_guess) ops.combine(x, 0, V(0), nullptr, 0, nullptr, 0, 0, nullptr);
      gauss_seidel(l, b, x, forward);
      continue;
    }
    if (o_.smoother == Smoother::jacobi) {
      // x += w D^-1 (b - A x), w = omega / rho
      const V w = real_value<V>(o_.omega / d.rho);
      if (zero_guess) {
        ops.block_diag(bs, d.dinv, b, d.tmp);
        ops.combine(x, 0, w, &d.tmp, 0, nullptr, 0, 0, nullptr);
      } else {
        residual(l, b, x, d.res);
        ops.block_diag(bs, d.dinv, d.res, d.tmp);
        ops.combine(x, 0, V(1), &x, 0, &d.tmp, 0, 1, &w);
      }
      continue;
    }
    // Chebyshev in D^-1 A over [lo, hi] (Saad, Iterative Methods, alg. 12.1
    // with the preconditioned residual): degree d products with A.
    const double hi = 1.1 * d.rho, lo = d.rho / 30;
    const double theta = (hi + lo) / 2, delta = (hi - lo) / 2, sigma = theta / delta;
    double rho_k = 1 / sigma;
    for (int k = 0; k < o_.degree; ++k) {
      if (k == 0 && zero_guess) {
        ops.block_diag(bs, d.dinv, b, d.tmp);  // r = D^-1 b
      } else {
        residual(l, b, x, d.res);
        ops.block_diag(bs, d.dinv, d.res, d.tmp);  // r = D^-1 (b - A x)
      }
      if (k == 0) {
        ops.combine(d.dir, 0, real_value<V>(1 / theta), &d.tmp, 0, nullptr, 0, 0, nullptr);
      } else {
        const double rho_next = 1 / (2 * sigma - rho_k);
        const V c = real_value<V>(2 * rho_next / delta);
        ops.combine(d.dir, 0, real_value<V>(rho_next * rho_k), &d.dir, 0, &d.tmp, 0, 1, &c);
        rho_k = rho_next;
      }
      if (k == 0 && zero_guess) {
        ops.combine(x, 0, V(1), &d.dir, 0, nullptr, 0, 0, nullptr);
      } else {
        const V one(1);
        ops.combine(x, 0, V(1), &x, 0, &d.dir, 0, 1, &one);
      }
    }
  }
}

template <Scalar V>
void Amg<V>::run(std::size_t l, const Buffer<V>& b, Buffer<V>& x, bool zero_guess) {
  if (l + 1 == levels_.size()) {  // the coarsest: x = A^-1 b (a zero guess or not)
    sparse::spmv(*coarse_, b, x);
    return;
  }
  DeviceLevel& d = levels_[l];
  DeviceLevel& c = levels_[l + 1];
  if (o_.pre() > 0) {
    smooth(l, b, x, zero_guess, o_.pre(), true);
    residual(l, b, x, d.res);
  } else if (zero_guess) {
    d.ops->combine(x, 0, V(0), nullptr, 0, nullptr, 0, 0, nullptr);
    d.ops->combine(d.res, 0, V(1), &b, 0, nullptr, 0, 0, nullptr);
  } else {
    residual(l, b, x, d.res);
  }
  sparse::spmv(*d.r, d.res, c.b);
  run(l + 1, c.b, c.x, true);
  if (o_.cycle == Cycle::w && l + 2 < levels_.size()) run(l + 1, c.b, c.x, false);
  sparse::spmv(*d.p, c.x, d.tmp);
  const V one(1);
  d.ops->combine(x, 0, V(1), &x, 0, &d.tmp, 0, 1, &one);
  smooth(l, b, x, false, o_.post(), false);
}

template <Scalar V>
std::string describe(const Hierarchy<V>& h) {
  std::string s =
      fmt::format("amg      {} levels, operator complexity {:.3f}, grid complexity {:.3f}\n",
                  h.levels.size(), h.operator_complexity(), h.grid_complexity());
  s += "  level       rows     nonzeros  block   rho(D^-1 A)  colours\n";
  for (std::size_t l = 0; l < h.levels.size(); ++l) {
    const auto& lv = h.levels[l];
    s += fmt::format("  {:5d} {:10d} {:12d} {:6d}   {:11.4f}  {}\n", l, lv.a.rows, lv.a.nnz(),
                     lv.block, lv.rho,
                     l + 1 == h.levels.size() ? std::string("(dense inverse)")
                     : lv.colors() > 0        ? fmt::format("{:7d}", lv.colors())
                                              : std::string("      -"));
  }
  const auto& t = h.times;
  s += fmt::format(
      "  setup {:.3f} ms: diagonal and rho {:.3f}, strength {:.3f}, aggregation {:.3f}, tentative "
      "{:.3f}, smoothing {:.3f}, galerkin {:.3f}, colouring {:.3f}, coarse {:.3f} (aggregation "
      "and products on {})\n",
      1e3 * t.total, 1e3 * t.diagonal, 1e3 * t.strength, 1e3 * t.aggregation, 1e3 * t.tentative,
      1e3 * t.smoothing, 1e3 * t.galerkin, 1e3 * t.coloring, 1e3 * t.coarse, h.products_on);
  return s;
}

#define TS_INSTANTIATE(V) \
  template class Amg<V>;  \
  template std::string describe<V>(const Hierarchy<V>&);
TESSERA_SPARSE_FOR_EACH_SCALAR(TS_INSTANTIATE)
#undef TS_INSTANTIATE

}  // namespace tessera::amg
