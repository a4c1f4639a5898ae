// Every SpMV kernel on every device and value type against the host reference
// (sparse/spmv.hpp) and, bitwise, against its CPU twin (the same kernel on
// the CPU device sums in the same order).
//
// Tolerance against the reference, per row i: |y_i - ref_i| <= (len_i + 2) *
// eps * sum_j |a_ij| |x_j|, eps the value type's machine epsilon (FLT_EPSILON
// 1.2e-7, DBL_EPSILON 2.2e-16), len_i the row's stored entries: the bound of
// any summation order. Matrices with small integer values (the shapes of
// sparse_test_util.hpp) are exact in every order, so there the bound is 0.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "core/registry.hpp"
#include "sparse/convert.hpp"
#include "sparse/device_matrix.hpp"
#include "sparse/spmv.hpp"
#include "sparse/trace_generator.hpp"
#include "sparse/laplacian.hpp"
#include "sparse_test_util.hpp"
#include "test_support.hpp"

namespace tessera::sparse {
namespace {

using test::random_vector;

template <Scalar V>
V poison_value() {
  const auto nan = std::numeric_limits<real_t<V>>::quiet_NaN();
  if constexpr (is_complex_v<V>)
    return V(nan, nan);
  else
    return nan;
}

template <Scalar V>
bool same_bits(V a, V b) {
  return std::memcmp(&a, &b, sizeof(V)) == 0;
}

/// Per-row bounds sum_j |a_ij||x_j| * (len + 2) * eps; 0 for exact inputs.
template <Scalar V>
std::vector<double> row_bounds(const Csr<V>& a, const std::vector<V>& x, bool exact) {
  std::vector<double> b(static_cast<std::size_t>(a.rows), 0.0);
  if (exact) return b;
  const double eps = std::numeric_limits<real_t<V>>::epsilon();
  for (size64 i = 0; i < a.rows; ++i) {
    double s = 0;
    for (index_t p = a.row_ptr[i]; p < a.row_ptr[i + 1]; ++p)
      s += static_cast<double>(magnitude(a.val[p])) * static_cast<double>(magnitude(x[a.col[p]]));
    b[i] = s * eps * static_cast<double>(a.row_ptr[i + 1] - a.row_ptr[i] + 2);
  }
  return b;
}

struct Case {
  std::string name;
  bool exact;  ///< integer values: every order gives the reference exactly
};

class SpmvDevice : public ::testing::TestWithParam<std::string> {
 protected:
  /// Runs every kernel available on the device on `host` (given as CSR, or
  /// as BCSR for the TRACE cases) and checks it.
  template <Scalar V, class M>
  void check_all(const M& host, const Csr<V>& csr, const Case& c, const DeviceOptions& opt,
                 bool (*use)(Kernel) = nullptr) {
    auto dev = open_device(GetParam());
    auto cpu = open_device("cpu");
    const std::vector<V> x = random_vector<V>(csr.cols, 11, c.exact);
    std::vector<V> ref(static_cast<std::size_t>(csr.rows));
    spmv<V, V>(csr, std::span<const V>(x), std::span<V>(ref));
    const std::vector<double> bound = row_bounds(csr, x, c.exact);
    std::vector<V> bell_y, bell_bi_y;  // one sum order, two index flavours: the same bits
    for (Kernel k : all_kernels()) {
      if (!available(k, dev->backend()) || (use && !use(k))) continue;
      SCOPED_TRACE(fmt::format("{} kernel {} on {}", c.name, to_string(k), GetParam()));
      auto run = [&](const std::shared_ptr<Device>& d) {
        DeviceMatrix<V> a(d, host, k, opt);
        Buffer<V> xb(d, x.size()), yb(d, ref.size());
        xb.copy_from_host(x);
        yb.copy_from_host(std::vector<V>(ref.size(), poison_value<V>()));
        spmv(a, xb, yb, k);
        return yb.to_vector();
      };
      const std::vector<V> y = run(dev);
      const std::vector<V> twin = dev->backend() == Backend::cpu ? y : run(cpu);
      for (std::size_t i = 0; i < y.size(); ++i) {
        ASSERT_LE(static_cast<double>(magnitude(y[i] - ref[i])), bound[i]) << "row " << i;
        ASSERT_TRUE(same_bits(y[i], twin[i])) << "row " << i << " differs from the CPU twin";
      }
      if (k == Kernel::bell) bell_y = y;
      if (k == Kernel::bell_bi) bell_bi_y = y;
    }
    if (use && !(use(Kernel::bell) && use(Kernel::bell_bi))) return;  // not both run
    ASSERT_EQ(bell_y.size(), ref.size()) << c.name;
    ASSERT_EQ(bell_bi_y.size(), ref.size()) << c.name;
    for (std::size_t i = 0; i < ref.size(); ++i)
      ASSERT_TRUE(same_bits(bell_y[i], bell_bi_y[i]))
          << c.name << ": bell-bi differs from bell in row " << i;
  }

  template <Scalar V>
  void random_matrices() {
    DeviceOptions opt;
    opt.block_r = 3;  // blocks that do not divide the shapes
    opt.block_c = 2;
    opt.ell_subsection = 3;
    opt.sell_slice = 4;
    opt.sell_sort = 8;
    opt.bell_group_rows = 7;
    opt.bell_sub_slots = 2;
    for (const auto& s : test::shapes<V>()) {
      const Csr<V> a = to_csr(s.coo);
      check_all<V>(a, a, {s.name, true}, opt);
    }
    const Csr<V> u = to_csr(test::random_coo<V>(70, 61, 0.12, 21, 5, false));
    check_all<V>(u, u, {"uniform_70x61", false}, opt);
    // csr-vector with 1..32 lane chains per work-item: the CPU
    // twin (one chain per lane) gives the same bits; short rows (empty
    // chains) and long rows (several rounds per chain)
    const Csr<V> wide = to_csr(test::random_coo<V>(53, 240, 0.35, 23, 5, false));
    for (int lanes : {8, 32})
      for (int chains : {1, 2, 4, 32}) {
        DeviceOptions ch = opt;
        ch.csr_lanes = lanes;
        ch.csr_chains = chains;
        auto csr_vector_only = +[](Kernel k) { return k == Kernel::csr_vector; };
        check_all<V>(u, u, {fmt::format("uniform_70x61_lanes{}_chains{}", lanes, chains), false},
                     ch, csr_vector_only);
        check_all<V>(wide, wide,
                     {fmt::format("wide_53x240_lanes{}_chains{}", lanes, chains), false}, ch,
                     csr_vector_only);
      }
    // square blocks: bell-bi's kernels compiled for the block size (2..6) and
    // the generic one (7), with blocks cut at the matrix's edges
    for (int bs : {2, 3, 4, 6, 7}) {
      DeviceOptions sq = opt;
      sq.block_r = sq.block_c = bs;
      // every kernel up to 4x4; beyond, the ones without a block-size limit
      // (bcsr-warp and bell-v2 take at most 32 entries / TS_SPMV_MAX_BLOCK rows)
      auto bell_pair = +[](Kernel k) { return k == Kernel::bell || k == Kernel::bell_bi; };
      check_all<V>(u, u, {fmt::format("uniform_70x61_blocks_{0}x{0}", bs), false}, sq,
                   bs <= 4 ? nullptr : bell_pair);
    }
    const Csr<V> l = laplacian_7pt<V>(5, 4, 3);
    check_all<V>(l, l, {"laplace7_5x4x3", true}, DeviceOptions{});
    // irregular rows, as real matrices have: power-law lengths (most rows
    // 0..3 entries), one row of 1,900 entries spread over three csr-merge
    // tiles, one of a work-item's items less one, empty rows at both ends
    const Csr<V> pl = to_csr(power_law_coo<V>(301, 2400, 31));
    check_all<V>(pl, pl, {"power_law_301x2400", false}, opt);
  }

 public:
  /// Row i gets floor(2000 / (i + 1)^1.4) entries at random columns (row 7
  /// TS_SPMV_MERGE_ITEMS - 1, rows 0, 150 and 300 none), values in [-1, 1).
  template <Scalar V>
  static Coo<V> power_law_coo(size64 rows, size64 cols, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    Coo<V> a;
    a.rows = rows;
    a.cols = cols;
    for (size64 i = 1; i + 1 < rows; ++i) {
      if (i == rows / 2) continue;
      auto len = static_cast<size64>(2000.0 / std::pow(double(i), 1.4));
      if (i == 7) len = TS_SPMV_MERGE_ITEMS - 1;
      for (size64 k = 0; k < len; ++k)
        test::add(a, i, static_cast<size64>(rng() % cols), test::uniform<V>(rng));
    }
    return a;
  }

  /// A CSR matrix of the given row lengths, each row's columns a run at a
  /// random start, values in [-1, 1).
  template <Scalar V>
  static Csr<V> rows_of(const std::vector<size64>& lengths, size64 cols, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    Csr<V> a;
    a.rows = lengths.size();
    a.cols = cols;
    for (size64 len : lengths) {
      const size64 start = rng() % (cols - len + 1);
      for (size64 k = 0; k < len; ++k) {
        a.col.push_back(static_cast<index_t>(start + k));
        a.val.push_back(test::uniform<V>(rng));
      }
      a.row_ptr.push_back(static_cast<index_t>(a.val.size()));
    }
    return a;
  }

  /// csr-merge's tiles (TS_SPMV_MERGE_TILE items) and their carries: rows
  /// over two tiles (no carry scan), rows over many tiles and over several
  /// blocks of the carries' scan, tiles of empty rows only, a row of exactly
  /// a tile, rows ending at a tile's last item.
  template <Scalar V>
  void merge_tiles() {
    constexpr size64 tile = TS_SPMV_MERGE_TILE;
    auto merge_only = +[](Kernel k) { return k == Kernel::csr_merge; };
    std::mt19937_64 rng(5);
    std::vector<size64> two;  // rows of 0..100: spread over two tiles at most
    for (int i = 0; i < 3000; ++i) two.push_back(rng() % 101);
    const Csr<V> a = rows_of<V>(two, 400, 41);
    check_all<V>(a, a, {"merge_rows_over_two_tiles", false}, DeviceOptions{}, merge_only);
    std::vector<size64> many;
    for (int i = 0; i < 40; ++i) many.push_back(rng() % 6);
    many.push_back(tile * TS_SPMV_MERGE_SCAN * 5 / 2);  // over three blocks of the scan
    many.insert(many.end(), 3 * tile, 0);               // tiles of empty rows only
    many.push_back(tile);                               // a tile's worth
    many.push_back(tile - 1);                           // with its end: a tile (or two)
    many.push_back(2 * tile + 3);
    for (int i = 0; i < 500; ++i) many.push_back(rng() % 30);
    many.push_back(tile * TS_SPMV_MERGE_SCAN + 1);  // a block and one entry
    many.push_back(5);
    many.push_back(tile * 3);
    const size64 cols = tile * TS_SPMV_MERGE_SCAN * 5 / 2 + 17;
    const Csr<V> b = rows_of<V>(many, cols, 43);
    check_all<V>(b, b, {"merge_rows_over_many_tiles", false}, DeviceOptions{}, merge_only);
    // the same with each row's end at a tile's last item (rows + entries
    // before it a multiple of the tile)
    const std::vector<size64> aligned{tile - 1, 2 * tile - 1, tile * 300 - 1, 0, tile - 2};
    const Csr<V> c = rows_of<V>(aligned, tile * 300, 47);
    check_all<V>(c, c, {"merge_rows_ending_at_tile_ends", false}, DeviceOptions{}, merge_only);
  }

  template <Scalar V>
  void trace_case() {
    const TraceCase tc = parse_trace_case("trace:3x5x4,blocks=1");
    const Bcsr<V> b = to_bcsr(generate_trace_block<V>(tc, 0));
    DeviceOptions opt;
    opt.bell_group_rows = 40;
    check_all<V>(b, to_csr(b, Zeros::keep), {"trace_3x5x4", false}, opt);
  }
};

TEST_P(SpmvDevice, RandomMatricesFloat) { random_matrices<float>(); }
TEST_P(SpmvDevice, RandomMatricesDouble) { random_matrices<double>(); }
TEST_P(SpmvDevice, RandomMatricesComplexFloat) { random_matrices<std::complex<float>>(); }
TEST_P(SpmvDevice, RandomMatricesComplexDouble) { random_matrices<std::complex<double>>(); }
TEST_P(SpmvDevice, MergeTilesFloat) { merge_tiles<float>(); }
TEST_P(SpmvDevice, MergeTilesDouble) { merge_tiles<double>(); }
TEST_P(SpmvDevice, MergeTilesComplexFloat) { merge_tiles<std::complex<float>>(); }
TEST_P(SpmvDevice, MergeTilesComplexDouble) { merge_tiles<std::complex<double>>(); }
TEST_P(SpmvDevice, TraceCaseComplexFloat) { trace_case<std::complex<float>>(); }
TEST_P(SpmvDevice, TraceCaseDouble) { trace_case<double>(); }

// bell-sub's groups stay at 256 work-items however long the rows (NVIDIA's
// OpenCL runs it with no more: a row of 1,900 entries asked 320 there).
TEST(SpmvBellSub, GroupsStayWithin256WorkItems) {
  const Csr<double> pl = to_csr(SpmvDevice::power_law_coo<double>(301, 2400, 31));
  DeviceOptions opt;
  opt.block_r = 3;
  opt.block_c = 2;
  opt.bell_sub_slots = 2;
  const DeviceMatrix<double> a(open_device("cpu"), pl, Kernel::bell_sub, opt);
  const auto& b = std::get<DeviceBell<double>>(a.arrays());
  EXPECT_GT(b.width, 2 * kBellSubMaxSubsections);  // the option alone would give more
  EXPECT_LE(32 * b.subsections(), 256);            // groups of 32 rows x subsections
  EXPECT_GE(b.sub_slots, 2);
}

TEST_P(SpmvDevice, DefaultKernelAndErrors) {
  auto dev = open_device(GetParam());
  const Csr<double> l = laplacian_7pt<double>(4, 3, 2);
  DeviceMatrix<double> a(dev, l);
  Buffer<double> x(dev, 24), y(dev, 24), short_y(dev, 23);
  x.copy_from_host(random_vector<double>(24, 3, true));
  spmv(a, x, y);
  const auto y1 = y.to_vector();
  EXPECT_EQ(y1, multiply(l, x.to_vector()));
  EXPECT_THROW(spmv(a, x, short_y), Error);
  EXPECT_THROW(spmv(a, x, x), UsageError);
  EXPECT_THROW(spmv(a, x, y, Kernel::sell), UsageError);  // built as CSR
  DeviceMatrix<double> v3(dev, l, Kernel::bcsr_v3);
  EXPECT_THROW(spmv(v3, x, y, Kernel::bcsr_v2b), UsageError);  // column-major blocks
  EXPECT_NO_THROW(spmv(v3, x, y, Kernel::bcsr_warp));
  EXPECT_THROW(parse_kernel("bcsr-v9"), UsageError);
  for (Kernel k : all_kernels()) EXPECT_EQ(parse_kernel(to_string(k)), k);
  if (dev->backend() == Backend::opencl) {
    DeviceMatrix<double> b(dev, l, Kernel::bell);
    EXPECT_THROW(spmv(b, x, y, Kernel::bell_v4), UsageError);
  }
}

INSTANTIATE_TEST_SUITE_P(Devices, SpmvDevice, ::testing::ValuesIn(::tessera::test::device_ids()),
                         ::tessera::test::id_name);

}  // namespace
}  // namespace tessera::sparse
