// Krylov vector kernels (dots with the conjugate, combine, block_diag) on
// every device against a host reference in double, and bitwise against the
// CPU device (all backends follow one summation order); odd sizes spanning
// several reduction chunks, outputs poisoned with NaN first.
#include <gtest/gtest.h>

#include <cmath>
#include <typeinfo>

#include "core/dispatch.hpp"
#include "core/embedded_sources.hpp"
#include "core/kernels/portable.h"
#include "krylov/kernels/krylov_kernels.hpp"
#include "krylov/kernels/krylov_point.hpp"
#include "krylov/vector_ops.hpp"
#include "krylov_test_util.hpp"
#include "test_support.hpp"

namespace tessera::krylov {
namespace {

using test_util::random_values;
using test_util::val;

class KrylovKernels : public ::testing::TestWithParam<std::string> {};

// The OpenCL program takes the basis operations twice, for a basis of
// ts_real and a narrow one (the expansion keeps C's include semantics).
TEST(KrylovProgram, TakesTheBasisHeaderTwice) {
  const std::string k = expand_includes("krylov/kernels/krylov.cl");
  const std::string basis = "#line 1 \"krylov/kernels/krylov_basis.h\"";
  const std::size_t first = k.find(basis);
  ASSERT_NE(first, std::string::npos);
  const std::size_t second = k.find(basis, first + 1);
  ASSERT_NE(second, std::string::npos);
  EXPECT_EQ(k.find(basis, second + 1), std::string::npos);
  EXPECT_EQ(k.find("#include \""), std::string::npos);
}

template <class V>
double tol() {
  return std::is_same_v<sparse::real_t<V>, float> ? 2e-5 : 1e-13;
}

template <class V>
std::vector<V> poisoned(std::size_t n) {
  return std::vector<V>(n, val<V>(std::nan(""), std::nan("")));
}

template <class V>
void check_dots(const std::string& id,
                std::size_t n = 2 * TS_REDUCE_CHUNK + 777) {  // three chunks, the last partial
  const int k = 3;
  auto dev = open_device(id);
  DeviceVectorOps<V> ops(dev, n, k);
  DeviceVectorOps<V> cpu_ops(open_device("cpu"), n, k);
  auto hb = random_values<V>(n * (k + 1), 11), hw = random_values<V>(n, 12);
  auto basis = ops.make(k + 1), w = ops.make();
  auto cbasis = cpu_ops.make(k + 1), cw = cpu_ops.make();
  ops.set(basis, hb);
  ops.set(w, hw);
  cpu_ops.set(cbasis, hb);
  cpu_ops.set(cw, hw);
  std::vector<V> got(k), cpu(k);
  ops.dots(basis, 1, k, w, 0, got.data());  // slots 1..3: the offset matters
  cpu_ops.dots(cbasis, 1, k, cw, 0, cpu.data());
  for (int i = 0; i < k; ++i) {
    std::complex<double> ref = 0, noconj = 0, scale = 0;
    for (std::size_t e = 0; e < n; ++e) {
      const std::complex<double> v(hb[(std::size_t(i) + 1) * n + e]), x(hw[e]);
      ref += std::conj(v) * x;
      noconj += v * x;
      scale += std::abs(v) * std::abs(x);
    }
    const std::complex<double> g(got[static_cast<std::size_t>(i)]);
    EXPECT_LE(std::abs(g - ref), tol<V>() * std::abs(scale)) << "dot " << i << " on " << id;
    if constexpr (sparse::is_complex_v<
                      V>) {  // the conjugate is really there: ten times the rounding bound
      EXPECT_GT(std::abs(g - noconj), 10 * tol<V>() * std::abs(scale));
    }
    EXPECT_EQ(got[static_cast<std::size_t>(i)], cpu[static_cast<std::size_t>(i)])
        << "not bitwise equal to the CPU";
  }
  // <v, v> is real and positive.
  V self{};
  ops.dots(basis, 0, 1, basis, 0, &self);
  EXPECT_GT(std::real(std::complex<double>(self)), 0.0);
  EXPECT_EQ(std::imag(std::complex<double>(self)), 0.0);
}

template <class V>
void check_combine(const std::string& id) {
  const std::size_t n = TS_REDUCE_CHUNK + 301;
  const int k = 4;
  auto dev = open_device(id);
  DeviceVectorOps<V> ops(dev, n, k);
  DeviceVectorOps<V> cpu_ops(open_device("cpu"), n, k);
  auto hb = random_values<V>(n * k, 21), hx = random_values<V>(n * 2, 22);
  auto c = random_values<V>(k, 23);
  const V a = val<V>(0.75, -0.5);
  auto basis = ops.make(k), x = ops.make(2), y = ops.make(2);
  ops.set(basis, hb);
  ops.set(x, hx);
  ops.set(y, poisoned<V>(2 * n));
  ops.combine(y, 1, a, &x, 1, &basis, 1, k - 1, c.data());  // y[1] = a x[1] + sum c_i v_{1+i}
  auto got = ops.get(y);
  auto cb = cpu_ops.make(k), cx = cpu_ops.make(2), cy = cpu_ops.make(2);
  cpu_ops.set(cb, hb);
  cpu_ops.set(cx, hx);
  cpu_ops.set(cy, poisoned<V>(2 * n));
  cpu_ops.combine(cy, 1, a, &cx, 1, &cb, 1, k - 1, c.data());
  auto cpu = cpu_ops.get(cy);
  for (std::size_t e = 0; e < n; ++e) {
    std::complex<double> ref = std::complex<double>(a) * std::complex<double>(hx[n + e]);
    double scale = std::abs(std::complex<double>(hx[n + e]));
    for (int i = 0; i + 1 < k; ++i) {
      ref += std::complex<double>(c[std::size_t(i)]) *
             std::complex<double>(hb[(std::size_t(i) + 1) * n + e]);
      scale += std::abs(std::complex<double>(hb[(std::size_t(i) + 1) * n + e]));
    }
    ASSERT_LE(std::abs(std::complex<double>(got[n + e]) - ref), tol<V>() * 4 * scale)
        << "element " << e;
    ASSERT_EQ(got[n + e], cpu[n + e]) << "not bitwise equal to the CPU at " << e;
    ASSERT_TRUE(std::isnan(std::real(std::complex<double>(got[e]))))
        << "slot 0 must stay untouched";
  }
  // In place, no x term: y = sum c_i v_i (k terms).
  ops.combine(y, 0, V(0), nullptr, 0, &basis, 0, k, c.data());
  got = ops.get(y);
  for (std::size_t e = 0; e < n; e += 97) {
    std::complex<double> ref = 0;
    for (int i = 0; i < k; ++i)
      ref += std::complex<double>(c[std::size_t(i)]) *
             std::complex<double>(hb[std::size_t(i) * n + e]);
    EXPECT_LE(std::abs(std::complex<double>(got[e]) - ref), tol<V>() * 8);
  }
}

template <class V>
void check_block_diag(const std::string& id) {
  const int bs = 5;
  const std::size_t n = 5 * 203;
  auto dev = open_device(id);
  DeviceVectorOps<V> ops(dev, n, 1);
  auto hd = random_values<V>(n * bs, 31), hx = random_values<V>(n, 32);
  Buffer<V> d(dev, n * bs);
  d.copy_from_host(hd);
  auto x = ops.make(), y = ops.make();
  ops.set(x, hx);
  ops.set(y, poisoned<V>(n));
  ops.block_diag(bs, d, x, y);
  auto got = ops.get(y);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t blk = i / bs, r = i % bs;
    std::complex<double> ref = 0;
    for (std::size_t c = 0; c < std::size_t(bs); ++c)
      ref += std::complex<double>(hd[blk * bs * bs + r * bs + c]) *
             std::complex<double>(hx[blk * bs + c]);
    ASSERT_LE(std::abs(std::complex<double>(got[i]) - ref), tol<V>() * 10) << "row " << i;
  }
}

// DCGS2's fused reduction: one pass over basis slots 0..j with two
// right-hand sides, one of them a slot of the same block (u_j), must give each
// product the bits of the separate dots, here and on the CPU device, and the
// host (thesis mode) the same.
template <class V>
void check_dots2(const std::string& id, int k) {  // slots 0..k-1, u_j = slot k-1
  const std::size_t n = 2 * TS_REDUCE_CHUNK + 555;
  auto dev = open_device(id);
  DeviceVectorOps<V> ops(dev, n, k);
  DeviceVectorOps<V> cpu_ops(open_device("cpu"), n, k);
  HostVectorOps<V> host_ops(n, k);
  auto hb = random_values<V>(n * k, 41), hw = random_values<V>(n, 42);
  auto basis = ops.make(k), w = ops.make();
  ops.set(basis, hb);
  ops.set(w, hw);
  std::vector<V> a(k), b(k), a1(k), b1(k), ca(k), cb(k), ha(k), hb2(k);
  ops.dots2(basis, 0, k, basis, k - 1, &w, 0, a.data(), b.data());
  ops.dots(basis, 0, k, basis, k - 1, a1.data());
  ops.dots(basis, 0, k, w, 0, b1.data());
  auto cbasis = cpu_ops.make(k), cw = cpu_ops.make();
  cpu_ops.set(cbasis, hb);
  cpu_ops.set(cw, hw);
  cpu_ops.dots2(cbasis, 0, k, cbasis, k - 1, &cw, 0, ca.data(), cb.data());
  host_ops.dots2(hb, 0, k, hb, k - 1, &hw, 0, ha.data(), hb2.data());
  for (std::size_t i = 0; i < std::size_t(k); ++i) {
    EXPECT_EQ(a[i], a1[i]) << "first product " << i << " differs from dots on " << id;
    EXPECT_EQ(b[i], b1[i]) << "second product " << i << " differs from dots on " << id;
    EXPECT_EQ(a[i], ca[i]) << "first product " << i << " differs from the CPU device";
    EXPECT_EQ(b[i], cb[i]) << "second product " << i << " differs from the CPU device";
    EXPECT_EQ(a[i], ha[i]) << "first product " << i << " differs from the host";
    EXPECT_EQ(b[i], hb2[i]) << "second product " << i << " differs from the host";
    EXPECT_NE(a[i], b[i]);  // two different right-hand sides really arrived
  }
}

// DCGS2's fused update, in place as the solver uses it: slot j+1 = a w +
// sum_{i<=j} c_i v_i and slot j = a2 v_j + sum_{i<j} c2_i v_i in one pass,
// against the two combines run one after the other (slot j+1 first, since it
// reads the old v_j), bitwise, and against the CPU device and the host. j =
// 21: more basis vectors than the GPU loop's unroll (4), with a remainder.
template <class V>
void check_combine2(const std::string& id, int j) {
  const std::size_t n = TS_REDUCE_CHUNK + 411;
  const int slots = j + 3;  // slot j+2 must stay untouched
  auto dev = open_device(id);
  DeviceVectorOps<V> ops(dev, n, slots);
  DeviceVectorOps<V> cpu_ops(open_device("cpu"), n, slots);
  HostVectorOps<V> host_ops(n, slots);
  auto hb = random_values<V>(n * slots, 51), hw = random_values<V>(n, 52);
  for (std::size_t e = 0; e < n; ++e)
    hb[(j + 1) * n + e] = val<V>(std::nan(""), std::nan(""));  // poisoned output
  const auto c = random_values<V>(j + 1, 53), c2 = random_values<V>(j, 54);
  const V a = val<V>(1.25, -0.5), a2 = val<V>(-0.75, 0.25);
  auto run_fused = [&](auto& o, auto& basis, auto& w) {
    o.combine2(basis, j + 1, a, &w, 0, &basis, 0, j + 1, c.data(),
               {&basis, std::size_t(j), a2, &basis, std::size_t(j), j, c2.data()});
  };
  auto basis = ops.make(slots), w = ops.make(), sep = ops.make(slots);
  ops.set(basis, hb);
  ops.set(sep, hb);
  ops.set(w, hw);
  run_fused(ops, basis, w);
  ops.combine(sep, j + 1, a, &w, 0, &sep, 0, j + 1, c.data());
  ops.combine(sep, j, a2, &sep, j, &sep, 0, j, c2.data());
  const auto got = ops.get(basis), want = ops.get(sep);
  auto cbasis = cpu_ops.make(slots), cw = cpu_ops.make();
  cpu_ops.set(cbasis, hb);
  cpu_ops.set(cw, hw);
  run_fused(cpu_ops, cbasis, cw);
  const auto cpu = cpu_ops.get(cbasis);
  auto hbasis = hb;
  run_fused(host_ops, hbasis, hw);
  for (std::size_t e = 0; e < n * slots; ++e) {
    const std::size_t slot = e / n;
    if (slot == std::size_t(j + 2) || slot < std::size_t(j)) {
      ASSERT_EQ(got[e], hb[e]) << "slot " << slot << " must stay untouched";
      continue;
    }
    ASSERT_EQ(got[e], want[e]) << "slot " << slot << " element " << e % n
                               << ": fused != separate on " << id;
    ASSERT_EQ(got[e], cpu[e]) << "slot " << slot << " element " << e % n
                              << ": differs from the CPU device";
    ASSERT_EQ(got[e], hbasis[e]) << "slot " << slot << " element " << e % n
                                 << ": differs from the host";
  }
  // the reference in double for slot j (it read the old v_j before slot j+1
  // was formed); |coefficients|, |values| <= 1 and j + 1 terms: absolute
  // tolerance tol * 2 (j + 1)
  for (std::size_t e = 0; e < n; e += 37) {
    std::complex<double> ref = std::complex<double>(a2) * std::complex<double>(hb[j * n + e]);
    for (int i = 0; i < j; ++i)
      ref += std::complex<double>(c2[std::size_t(i)]) *
             std::complex<double>(hb[std::size_t(i) * n + e]);
    EXPECT_LE(std::abs(std::complex<double>(got[j * n + e]) - ref), tol<V>() * 2 * (j + 1)) << e;
  }
  // a second output without an x term (a2 ignored): the bits of combine without x
  auto y2 = ops.make(), y2sep = ops.make(), first = ops.make();
  ops.set(y2, poisoned<V>(n));
  ops.combine2(first, 0, a, &w, 0, &basis, 0, j + 1, c.data(),
               {&y2, 0, a2, nullptr, 0, j, c2.data()});
  ops.combine(y2sep, 0, V(0), nullptr, 0, &basis, 0, j, c2.data());
  const auto g2 = ops.get(y2), s2 = ops.get(y2sep);
  for (std::size_t e = 0; e < n; ++e)
    ASSERT_EQ(g2[e], s2[e]) << "second output without x, element " << e;
}

// The fused update of CG and BiCGStab (y = a x + b u + c w, y2 likewise,
// z = d y, products of the new y) equals combine, block_diag and dots run one
// after another, bit for bit, on every device, for every operand shape the
// solvers use (y in place, a second output, z, <y, z> or <e, y>); outputs
// poisoned first, three chunks with the last partial.
template <class V>
void check_update(const std::string& id) {
  const std::size_t n = 2 * TS_REDUCE_CHUNK + 555;
  auto dev = open_device(id);
  DeviceVectorOps<V> ops(dev, n, 4);
  using Vec = typename DeviceVectorOps<V>::Vec;
  using Lin = typename DeviceVectorOps<V>::Lin;
  const V a = val<V>(0.75, -0.5), b = val<V>(-1.25, 0.25), c = val<V>(0.5, 2.0), one(1);
  struct Shape {
    bool w, y2, z, e, norm;
  };
  for (Shape sh : {Shape{false, true, true, false, true}, Shape{true, false, false, false, false},
                   Shape{false, false, false, false, true}, Shape{true, true, false, true, true},
                   Shape{false, false, true, false, false}}) {
    auto host = [&](std::uint64_t seed) { return random_values<V>(n, seed); };
    const auto hx = host(21), hu = host(22), hw = host(23), hx2 = host(24), hu2 = host(25),
               hd = host(26), he = host(27);
    auto load = [&](const std::vector<V>& h) {
      Vec v = ops.make();
      ops.set(v, h);
      return v;
    };
    // fused: y in place of x, y2 in place of x2
    Vec y = load(hx), u = load(hu), w = load(hw), y2 = load(hx2), u2 = load(hu2), e = load(he);
    Buffer<V> d(dev, n);
    d.copy_from_host(hd);
    Vec z = load(poisoned<V>(n));
    V got[2] = {val<V>(-7, 7), val<V>(-7, 7)};
    ops.update(y, Lin{&y, a, &u, b, sh.w ? &w : nullptr, c}, sh.y2 ? &y2 : nullptr,
               Lin{&y2, one, &u2, c, &w, a}, sh.z ? &d : nullptr, sh.z ? &z : nullptr,
               {sh.norm, sh.z, sh.e ? &e : nullptr}, got);
    // separate kernels
    Vec ry = load(hx), ry2 = load(hx2), rz = load(poisoned<V>(n));
    const V cu[1] = {b};
    ops.combine(ry, 0, a, &ry, 0, &u, 0, 1, cu);
    if (sh.w) ops.combine(ry, 0, one, &ry, 0, &w, 0, 1, &c);
    if (sh.y2) {
      ops.combine(ry2, 0, one, &ry2, 0, &u2, 0, 1, &c);
      ops.combine(ry2, 0, one, &ry2, 0, &w, 0, 1, &a);
    }
    if (sh.z) ops.block_diag(1, d, ry, rz);
    std::vector<V> want;
    V t{};
    if (sh.norm) ops.dots(ry, 0, 1, ry, 0, &t), want.push_back(t);
    if (sh.z)
      ops.dots(ry, 0, 1, rz, 0, &t), want.push_back(t);
    else if (sh.e)
      ops.dots(e, 0, 1, ry, 0, &t), want.push_back(t);
    const std::string what = std::string(typeid(V).name()) + " on " + id + " shape " +
                             std::to_string(sh.w) + std::to_string(sh.y2) + std::to_string(sh.z) +
                             std::to_string(sh.e) + std::to_string(sh.norm);
    auto same = [&](const Vec& f, const Vec& r, const char* name) {
      const auto fv = ops.get(f), rv = ops.get(r);
      for (std::size_t i = 0; i < n; ++i)
        ASSERT_EQ(fv[i], rv[i]) << what << " " << name << "[" << i << "]";
    };
    same(y, ry, "y");
    if (sh.y2)
      same(y2, ry2, "y2");
    else
      same(y2, load(hx2), "y2 (untouched)");
    if (sh.z) same(z, rz, "z");
    for (std::size_t q = 0; q < want.size(); ++q)
      EXPECT_EQ(got[q], want[q]) << what << " product " << q;
    if (want.size() < 2) {
      EXPECT_EQ(got[1], val<V>(-7, 7)) << what << " (no second product)";
    }
    // <e, y> cannot share the pass with z = d y: refused, not silently <y, z>
    if (sh.z) {
      EXPECT_THROW(ops.update(y, Lin{&y, a, &u, b, nullptr, c}, nullptr, Lin{}, &d, &z,
                              {false, false, &e}, got),
                   Error)
          << what;
    }
    // against a host reference in double, so that both paths cannot be wrong alike
    const auto fy = ops.get(y);
    for (std::size_t i = 0; i < n; i += 97) {
      using C = std::complex<double>;
      C ref = C(a) * C(hx[i]) + C(b) * C(hu[i]);
      if (sh.w) ref += C(c) * C(hw[i]);
      EXPECT_LE(std::abs(C(fy[i]) - ref), 10 * tol<V>() * (1 + std::abs(ref)))
          << what << " y[" << i << "]";
    }
  }
}

// One coefficient term is enough for update's two lists of three complex
// coefficients (12 reals per ring slot).
template <class V>
void update_with_one_term(const std::string& id) {
  auto dev = open_device(id);
  DeviceVectorOps<V> ops(dev, 300, 1);
  using Lin = typename DeviceVectorOps<V>::Lin;
  auto y = ops.make(), u = ops.make(), w = ops.make();
  const auto hy = random_values<V>(300, 31), hu = random_values<V>(300, 32),
             hw = random_values<V>(300, 33);
  ops.set(y, hy), ops.set(u, hu), ops.set(w, hw);
  const V a = val<V>(0.5, 0.25), b = val<V>(-1, 0.5), c = val<V>(2, -1);
  V out[2]{};
  ops.update(y, Lin{&y, a, &u, b, &w, c}, nullptr, Lin{}, nullptr, nullptr, {true, false, nullptr},
             out);
  const auto got = ops.get(y);
  for (std::size_t i = 0; i < 300; ++i) {
    using C = std::complex<double>;
    const C ref = C(a) * C(hy[i]) + C(b) * C(hu[i]) + C(c) * C(hw[i]);
    ASSERT_LE(std::abs(C(got[i]) - ref), 10 * tol<V>() * (1 + std::abs(ref)))
        << id << " y[" << i << "]";
  }
}

TEST_P(KrylovKernels, FusedUpdateNeedsOnlyOneCoefficientTerm) {
  update_with_one_term<double>(GetParam());
  update_with_one_term<std::complex<float>>(GetParam());
  update_with_one_term<std::complex<double>>(GetParam());
}

TEST_P(KrylovKernels, FusedUpdateGivesTheBitsOfSeparateKernels) {
  check_update<float>(GetParam());
  check_update<double>(GetParam());
  check_update<std::complex<float>>(GetParam());
  check_update<std::complex<double>>(GetParam());
}

TEST_P(KrylovKernels, FusedDotsGiveTheBitsOfSeparateDots) {
  // a few basis vectors and many (the partials of 19 products interleave
  // per chunk; a grouped GPU reduction, tried in 7c7440c, needed both)
  for (int k : {4, 19}) {
    check_dots2<float>(GetParam(), k);
    check_dots2<double>(GetParam(), k);
    check_dots2<std::complex<float>>(GetParam(), k);
    check_dots2<std::complex<double>>(GetParam(), k);
  }
}

TEST_P(KrylovKernels, FusedCombineGivesTheBitsOfTwoCombinesInPlace) {
  for (int j : {3, 21}) {
    check_combine2<float>(GetParam(), j);
    check_combine2<double>(GetParam(), j);
    check_combine2<std::complex<float>>(GetParam(), j);
    check_combine2<std::complex<double>>(GetParam(), j);
  }
}

TEST_P(KrylovKernels, DotsAreHermitianAndMatchTheCpuBitwise) {
  check_dots<float>(GetParam());
  check_dots<double>(GetParam());
  check_dots<std::complex<float>>(GetParam());
  check_dots<std::complex<double>>(GetParam());
}

// More chunks than a group has work-items: each work-item of the device-side
// chunk reduction sums several partials in sequence before the tree.
TEST_P(KrylovKernels, ChunkSumsWrapAroundTheReductionGroup) {
  const std::size_t n = (TS_REDUCE_THREADS + 3) * std::size_t(TS_REDUCE_CHUNK) + 5;
  check_dots<std::complex<float>>(GetParam(), n);
  check_dots<double>(GetParam(), n);
}

TEST_P(KrylovKernels, CombineMatchesReferenceAndCpu) {
  check_combine<float>(GetParam());
  check_combine<double>(GetParam());
  check_combine<std::complex<float>>(GetParam());
  check_combine<std::complex<double>>(GetParam());
}

// DCGS2's coefficient kernel (one work-group, krylov_dcgs2.h) against the
// host's ts_kry_dcgs2_coef, bitwise: random sums of order one, where the
// order of the two sums shows in the bits (in GMRES the first projection's
// coefficients are at rounding level and hide it), steps j up to 100 (four
// per lane), both paths, written at an offset into a poisoned buffer.
template <class R>
void check_dcgs2_coef(const std::string& id, int nc) {
  auto dev = open_device(id);
  for (int j : {1, 7, 33, 100})
    for (int expl : {0, 1}) {
      const int k = j + 1;
      const auto r = random_values<double>(4 * std::size_t(k),
                                           900 + 2 * std::uint64_t(j) + std::uint64_t(expl));
      std::vector<R> sums(r.begin(), r.end());
      sums[0] = R(1);                               // |a_0| = 1: nu = 1/2 takes the explicit path
      sums[2 * j] = expl ? R(0.5) : R(4 * j + 10);  // nu; |a|^2 <= 2j otherwise
      const std::size_t reals = std::size_t(nc) * (2 * std::size_t(j) + 3), off = 3;
      Buffer<R> dsums(dev, sums.size()), coef(dev, reals + 2 * off);
      dsums.copy_from_host(sums);
      coef.copy_from_host(std::vector<R>(reals + 2 * off, R(std::nan(""))));
      dispatch(*dev, [&](auto tag) {
        kernels::dcgs2_coef(tag, dev->queue(), nc, j, launch::In<R>(dsums),
                            kernels::out<R>(*dev, coef.handle(), off));
      });
      const auto got = coef.to_vector();
      std::vector<R> want(reals);
      double st[7];
      point::ts_kry_dcgs2_coef(nc, j, sums.data(), st, want.data());
      const std::string what = "j " + std::to_string(j) + " nc " + std::to_string(nc) + " on " + id;
      ASSERT_EQ(st[3] != 0, expl != 0) << what;
      for (std::size_t q = 0; q < reals; ++q)
        ASSERT_EQ(got[off + q], want[q]) << "value " << q << ", " << what;
      for (std::size_t q = 0; q < off; ++q)
        ASSERT_TRUE(std::isnan(got[q]) && std::isnan(got[off + reals + q]))
            << "written outside, " << what;
    }
}

TEST_P(KrylovKernels, Dcgs2CoefficientsMatchTheHostBitwise) {
  for (int nc : {1, 2}) {
    check_dcgs2_coef<float>(GetParam(), nc);
    check_dcgs2_coef<double>(GetParam(), nc);
  }
}

// s-step GMRES's block products: every product of a block of t vectors
// against k basis vectors has the bits of dots against that vector alone
// (one pass for the block, the same canonical order per product); the
// block's own Gram matrix likewise.
template <class V>
void check_dots_block(const std::string& id, int k, int t) {
  const std::size_t n = 2 * TS_REDUCE_CHUNK + 777;
  auto dev = open_device(id);
  DeviceVectorOps<V> ops(dev, n, k + t, t);
  const auto hb =
      random_values<V>(n * std::size_t(k + t + 1), 40 + std::uint64_t(k) + 3 * std::uint64_t(t));
  auto basis = ops.make(std::size_t(k + t + 1));
  ops.set(basis, hb);
  // Q = slots 1..k, the block = slots k+1..k+t (offsets on both sides)
  std::vector<V> block(std::size_t(k) * std::size_t(t)), gram(std::size_t(t) * std::size_t(t));
  std::vector<V> one(static_cast<std::size_t>(k + t));
  ops.dots_block(basis, 1, k, std::size_t(k) + 1, t, block.data());
  ops.dots_block(basis, std::size_t(k) + 1, t, std::size_t(k) + 1, t, gram.data());
  const std::string what = std::string(typeid(V).name()) + " k " + std::to_string(k) + " t " +
                           std::to_string(t) + " on " + id;
  for (int r = 0; r < t; ++r) {
    ops.dots(basis, 1, k, basis, std::size_t(k + 1 + r), one.data());
    for (int i = 0; i < k; ++i)
      ASSERT_EQ(block[std::size_t(r) * k + i], one[std::size_t(i)])
          << what << " product " << i << ", " << r;
    ops.dots(basis, std::size_t(k) + 1, t, basis, std::size_t(k + 1 + r), one.data());
    for (int l = 0; l < t; ++l)
      ASSERT_EQ(gram[std::size_t(r) * t + l], one[std::size_t(l)])
          << what << " Gram " << l << ", " << r;
  }
  // and one product against a host reference in double (the conjugate on Q)
  std::complex<double> ref = 0, scale = 0;
  for (std::size_t e = 0; e < n; ++e) {
    const std::complex<double> q(hb[n + e]), y(hb[(std::size_t(k) + std::size_t(t)) * n + e]);
    ref += std::conj(q) * y;
    scale += std::abs(q) * std::abs(y);
  }
  EXPECT_LE(std::abs(std::complex<double>(block[std::size_t(t - 1) * k]) - ref),
            tol<V>() * std::abs(scale))
      << what;
}

TEST_P(KrylovKernels, BlockDotsGiveTheBitsOfDots) {
  for (auto [k, t] : {std::pair{3, 1}, {19, 3}, {5, 4}, {7, 8}}) {
    check_dots_block<float>(GetParam(), k, t);
    check_dots_block<double>(GetParam(), k, t);
    check_dots_block<std::complex<float>>(GetParam(), k, t);
    check_dots_block<std::complex<double>>(GetParam(), k, t);
  }
}

// The block combination in place, Y <- Y A + Q C: against a host reference
// in double and bitwise against the CPU device; the slot after the block
// (poisoned) and the basis stay untouched.
template <class V>
void check_combine_block(const std::string& id, int k, int t) {
  const std::size_t n = TS_REDUCE_CHUNK + 301;
  const std::size_t slots = std::size_t(k + t + 1);
  auto hb = random_values<V>(n * slots, 60 + std::uint64_t(k) + 5 * std::uint64_t(t));
  for (std::size_t e = 0; e < n; ++e) hb[(slots - 1) * n + e] = val<V>(std::nan(""), std::nan(""));
  const auto a = random_values<V>(std::size_t(t) * t, 61),
             c = random_values<V>(std::size_t(t) * std::size_t(std::max(k, 1)), 62);
  auto run = [&](const std::string& on) {
    DeviceVectorOps<V> ops(open_device(on), n, std::max(k, 1), t);
    auto basis = ops.make(slots);
    ops.set(basis, hb);
    ops.combine_block(basis, std::size_t(k), t, a.data(), 0, k, c.data());
    return ops.get(basis);
  };
  const auto got = run(id), cpu = run("cpu");
  const std::string what = std::string(typeid(V).name()) + " k " + std::to_string(k) + " t " +
                           std::to_string(t) + " on " + id;
  for (std::size_t e = 0; e < n; ++e) {
    for (int r = 0; r < t; ++r) {
      std::complex<double> ref = 0;
      double scale = 0;
      for (int l = 0; l < t; ++l) {
        ref += std::complex<double>(a[std::size_t(r) * t + l]) *
               std::complex<double>(hb[std::size_t(k + l) * n + e]);
        scale += std::abs(std::complex<double>(hb[std::size_t(k + l) * n + e]));
      }
      for (int i = 0; i < k; ++i) {
        ref += std::complex<double>(c[std::size_t(r) * k + i]) *
               std::complex<double>(hb[std::size_t(i) * n + e]);
        scale += std::abs(std::complex<double>(hb[std::size_t(i) * n + e]));
      }
      const std::size_t at = std::size_t(k + r) * n + e;
      ASSERT_LE(std::abs(std::complex<double>(got[at]) - ref), tol<V>() * 4 * scale)
          << what << " output " << r << " element " << e;
      ASSERT_EQ(got[at], cpu[at]) << what << " not bitwise the CPU's, output " << r << " element "
                                  << e;
    }
    for (int i = 0; i < k; ++i)
      ASSERT_EQ(got[std::size_t(i) * n + e], hb[std::size_t(i) * n + e])
          << what << " basis changed";
    ASSERT_TRUE(std::isnan(std::real(std::complex<double>(got[(slots - 1) * n + e]))))
        << what << " wrote past the block";
  }
}

TEST_P(KrylovKernels, BlockCombineMatchesReferenceAndCpu) {
  for (auto [k, t] : {std::pair{0, 3}, {5, 1}, {21, 3}, {6, 4}, {9, 8}}) {
    check_combine_block<float>(GetParam(), k, t);
    check_combine_block<double>(GetParam(), k, t);
    check_combine_block<std::complex<float>>(GetParam(), k, t);
    check_combine_block<std::complex<double>>(GetParam(), k, t);
  }
}

TEST_P(KrylovKernels, BlockOperationsRejectOverlapsAndOversizedBlocks) {
  using V = std::complex<float>;
  const std::size_t n = 1000;
  DeviceVectorOps<V> ops(open_device(GetParam()), n, 8, 4);
  auto basis = ops.make(10);
  ops.set(basis, random_values<V>(10 * n, 70));
  std::vector<V> a(64, V(1)), c(64, V(1)), out(64);
  EXPECT_THROW(ops.combine_block(basis, 3, 4, a.data(), 0, 4, c.data()),
               Error);  // block 3..6 overlaps basis 0..3
  EXPECT_THROW(ops.combine_block(basis, 4, 5, a.data(), 0, 4, c.data()),
               Error);                                                 // 5 > the block capacity 4
  EXPECT_THROW(ops.dots_block(basis, 0, 4, 8, 3, out.data()), Error);  // slots 8..10 of 10
  EXPECT_THROW(ops.dots_block(basis, 0, 9, 9, 1, out.data()),
               Error);  // 9 basis vectors, capacity 8
}

TEST_P(KrylovKernels, BlockDiagonalMultiply) {
  check_block_diag<float>(GetParam());
  check_block_diag<std::complex<double>>(GetParam());
}

INSTANTIATE_TEST_SUITE_P(Devices, KrylovKernels, ::testing::ValuesIn(test::device_ids()),
                         test::id_name);

}  // namespace
}  // namespace tessera::krylov
