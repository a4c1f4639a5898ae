// The TRACE-like generator: the thesis's case sizes (Tables 4.1/4.2), the
// structure of a grid block (ghost placeholders, stencil, ~17% zeros inside
// blocks, diagonal dominance), determinism, the BELL V3 vector windows of
// Table 6.10 (which pin down the cell numbering), SpMV agreement of the
// formats TRACE's kernels use, and GMRES convergence on a generated system.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

#include "core/error.hpp"
#include "sparse/convert.hpp"
#include "sparse/spmv.hpp"
#include "sparse/storage.hpp"
#include "sparse/trace_generator.hpp"
#include "sparse/validate.hpp"
#include "sparse/x_window.hpp"
#include "tests/sparse/sparse_test_util.hpp"

namespace tessera::sparse {
namespace {

using cf = std::complex<float>;
using cd = std::complex<double>;

TEST(TraceGenerator, StencilsOfSection46) {
  EXPECT_EQ(stencil_offsets(Stencil::euler2d_9).size(), 9u);
  EXPECT_EQ(stencil_offsets(Stencil::ns2d_13).size(), 13u);
  EXPECT_EQ(stencil_offsets(Stencil::euler3d_13).size(), 13u);
  EXPECT_EQ(stencil_offsets(Stencil::ns3d_25).size(), 25u);
  for (Stencil s : {Stencil::euler2d_9, Stencil::ns2d_13, Stencil::euler3d_13, Stencil::ns3d_25}) {
    auto o = stencil_offsets(s);
    EXPECT_EQ(o[0], (std::array<int, 3>{0, 0, 0}));
    std::sort(o.begin(), o.end());
    EXPECT_EQ(std::unique(o.begin(), o.end()), o.end()) << to_string(s);
  }
}

TEST(TraceGenerator, CaseSpecifications) {
  const TraceCase c = parse_trace_case("trace:10x40x80");
  EXPECT_EQ(c.nx, 10);
  EXPECT_EQ(c.ntheta, 40);
  EXPECT_EQ(c.nr, 80);
  EXPECT_EQ(c.grid_blocks, 8);
  EXPECT_EQ(c.stencil, Stencil::euler3d_13);
  EXPECT_EQ(parse_trace_case("trace:4").name(), "trace:10x40x80");
  const TraceCase d = parse_trace_case("ns2d:20x30,blocks=2,seed=5,periodic,dominance=2");
  EXPECT_EQ(d.stencil, Stencil::ns2d_13);
  EXPECT_EQ(d.nr, 1);
  EXPECT_EQ(d.grid_blocks, 2);
  EXPECT_EQ(d.seed, 5u);
  EXPECT_TRUE(d.periodic_theta);
  EXPECT_EQ(parse_trace_case(d.name()).name(), d.name());
  for (const char* bad :
       {"trace:10x40", "foo:1x2x3", "trace:0x1x1", "trace:5x5x5,blocks=0", "trace:5x4x5,periodic",
        "trace:5x5x5,bogus=1", "trace", "euler2d:4x4x4", "trace:7"})
    EXPECT_THROW(parse_trace_case(bad), UsageError) << bad;
}

TEST(TraceGenerator, SizesOfTables41And42) {
  const auto cases = thesis_cases();
  ASSERT_EQ(cases.size(), 6u);
  const size64 cells[6] = {8000, 16000, 16000, 32000, 32000, 128000};
  const size64 max_blocks_total[6] = {832000, 1664000, 1664000, 3328000, 3328000, 13312000};
  for (int k = 0; k < 6; ++k) {
    const TraceSizes s = trace_sizes(cases[k]);
    EXPECT_EQ(s.cells_per_block, cells[k]);
    EXPECT_EQ(s.stored_rows_per_block * cases[k].grid_blocks,
              5 * 8 * cells[k]);  // total scalar rows
    EXPECT_EQ(s.max_blocks_per_block * cases[k].grid_blocks, max_blocks_total[k]);
    // Table 4.2: 13 x 25 x 2 = 650 floats per cell; 4 bytes per float.
    EXPECT_EQ(s.max_blocks_per_block * 25 * 2, 650 * cells[k]);
  }
  // 166.4 MB for case 1; 665.6 MB (not the printed 1.3312 GB) for cases 4 and 5.
  EXPECT_EQ(trace_sizes(cases[0]).max_blocks_per_block * 8 * 25 * 2 * 4, 166400000);
  EXPECT_EQ(trace_sizes(cases[3]).max_blocks_per_block * 8 * 25 * 2 * 4, 665600000);
  // The vector index space includes the ghost layers: (10+4)(40+4)(20+4) cells.
  EXPECT_EQ(trace_sizes(cases[0]).slots_per_block, 14 * 44 * 24);
}

TEST(TraceGenerator, StructureOfAGridBlock) {
  const TraceCase c = parse_trace_case("trace:6x7x5");
  const GappedBcsr<cf> g = generate_trace_block<cf>(c, 0);
  validate(g);
  const TraceSizes s = trace_sizes(c);
  EXPECT_EQ(g.rows, s.rows_per_block);
  EXPECT_EQ(g.nblocks(), s.blocks_per_block);
  const size64 ghosts = std::count(g.row_ptr.begin(), g.row_ptr.end(), kGhostRow);
  EXPECT_EQ(ghosts, s.slots_per_block - s.cells_per_block);
  // Interior cell (x=2, theta=3, r=2) has all 13 neighbours; index = ((r+2)*10 + x+2)*11 + theta+2.
  const size64 cell = ((2 + 2) * 10 + 2 + 2) * 11 + 3 + 2;
  ASSERT_NE(g.row_ptr[cell], kGhostRow);
  const index_t first = g.row_ptr[cell], last = g.row_ptr[cell + 1];
  EXPECT_EQ(last - first, 13);
  size64 zeros = 0;
  for (size64 k = first * 25; k < last * 25; ++k) zeros += g.val[k] == cf(0);
  EXPECT_EQ(zeros, 55);  // 12 x 4 + 7: 16.9% of 325
  // Diagonal dominance of every stored row, by the chosen factor 1.5.
  const Csr<cd> a = to_csr(generate_trace_block<cd>(c, 0));
  for (size64 i = 0; i < a.rows; ++i) {
    double diag = 0, off = 0;
    for (index_t p = a.row_ptr[i]; p < a.row_ptr[i + 1]; ++p)
      (a.col[p] == i ? diag : off) += std::abs(a.val[p]);
    if (a.row_ptr[i + 1] > a.row_ptr[i]) {
      EXPECT_NEAR(diag, 1.5 * off, 1e-9 * diag) << "row " << i;
    }
  }
}

TEST(TraceGenerator, ThesisCase1ZeroFractionAndBlockCount) {
  const TraceCase c = thesis_cases()[0];
  const GappedBcsr<cf> g = generate_trace_block<cf>(c, 3);
  EXPECT_EQ(g.nblocks(), 95600);  // of at most 13 x 8000 = 104000
  const Storage s = storage(g);
  EXPECT_NEAR(s.zero_fraction(), 1 - 0.8303, 0.002);  // the thesis's ELL/BCSR operation ratio
  EXPECT_EQ(s.value_bytes, 95600 * 25 * 8);
}

TEST(TraceGenerator, DeterministicSeededValues) {
  const TraceCase c = parse_trace_case("trace:5x6x5,seed=7");
  const auto a = generate_trace_block<cd>(c, 1), b = generate_trace_block<cd>(c, 1);
  EXPECT_EQ(a.val, b.val);
  EXPECT_NE(generate_trace_block<cd>(c, 2).val, a.val);  // grid blocks differ in values...
  EXPECT_EQ(generate_trace_block<cd>(c, 2).col, a.col);  // ...not in structure
  const auto other = generate_trace_block<cd>(parse_trace_case("trace:5x6x5,seed=8"), 1);
  EXPECT_NE(other.val, a.val);
  for (std::size_t k = 0; k < a.val.size(); ++k)
    EXPECT_EQ(other.val[k] == cd(0), a.val[k] == cd(0));  // same zeros
  const auto r =
      generate_trace_block<double>(c, 1);  // real variant: real parts of the same hash stream
  EXPECT_EQ(r.col, a.col);
}

TEST(TraceGenerator, Table610VectorWindowsFixTheCellNumbering) {
  // BELL V3 needs x[min..max] of each work-group; the thesis lists, for case
  // 10x40x20, 12415 / 13375 / 13555 / 13735 values for work-groups of
  // 80 / 160 / 320 / 480 rows. Theta fastest, x, then r reproduces all four.
  const Bcsr<cf> c = to_bcsr(generate_trace_block<cf>(thesis_cases()[0], 0));
  const std::pair<size64, size64> table[] = {{80, 12415}, {160, 13375}, {320, 13555}, {480, 13735}};
  for (auto [rows, values] : table) {
    const XWindowSummary s = summarize(x_windows(c, rows), 5);
    EXPECT_EQ(s.max_index_span, values) << rows;
    EXPECT_EQ(s.max_window, values + 5) << rows;  // what a kernel actually reads
  }
}

TEST(TraceGenerator, TraceFormatsAgreeOnSpmv) {
  for (const char* spec :
       {"trace:5x6x7", "ns3d:4x5x6", "euler2d:7x9", "ns2d:6x8,periodic", "trace:5x6x4,periodic"}) {
    SCOPED_TRACE(spec);
    const TraceCase c = parse_trace_case(spec);
    const GappedBcsr<cf> g = generate_trace_block<cf>(c, 0);
    validate(g);
    EXPECT_EQ(g.nblocks(), trace_sizes(c).blocks_per_block);
    const auto x = test::random_vector<cf>(g.cols, 3, false);
    const auto y = multiply(g, x);  // TRACE's CPU loop over the gapped matrix
    const Bcsr<cf> b = to_bcsr(g);  // compressed row pointer + block row index
    EXPECT_EQ(multiply(b, x), y);
    EXPECT_EQ(multiply(with_layout(b, BlockLayout::col_major), x), y);  // kernel V3's blocks
    const Ell<cf> e =
        to_ell(to_csr(b, Zeros::drop), {20, false, true});  // kernel ELL: zeros dropped, L = 20
    EXPECT_EQ(e.width % 20, 0);
    EXPECT_EQ(e.stored_rows, trace_sizes(c).stored_rows_per_block);
    EXPECT_EQ(multiply(e, x), y);
    EXPECT_EQ(multiply(to_bell(b, {BellIndex::scalar_row}), x), y);  // kernel BELL
    EXPECT_EQ(multiply(to_bell(b, {BellIndex::block_row}), x), y);   // kernel BELL V2
    EXPECT_EQ(multiply(to_csr(g), x), y);
    // A real matrix with a complex vector, TRACE's second type combination.
    const GappedBcsr<float> r = generate_trace_block<float>(c, 0);
    EXPECT_EQ(multiply(r, x), multiply(to_csr(r), x));
    for (size64 br = 0; br < g.block_rows(); ++br) {  // ghost rows of y are zero
      if (g.row_ptr[br] != kGhostRow) continue;
      for (int i = 0; i < 5; ++i) EXPECT_EQ(y[br * 5 + i], cf(0));
    }
  }
}

// The system without the ghost cells' empty rows: the kept block rows are the
// real cells, A_c x_c equals A x on them bitwise for any x, and a matrix that
// refers to an empty row's unknown, or is not square, is refused.
TEST(TraceGenerator, DroppingGhostRowsKeepsEveryProduct) {
  for (const char* spec : {"trace:5x6x7", "ns3d:4x5x6", "trace:5x6x4,periodic"}) {
    SCOPED_TRACE(spec);
    const TraceCase c = parse_trace_case(spec);
    const GappedBcsr<cf> g = generate_trace_block<cf>(c, 0);
    const Bcsr<cf> b = to_bcsr(g);
    const RestrictedSystem<cf> r = drop_empty_block_rows(b);
    validate(r.a);
    size64 real = 0;
    for (size64 br = 0; br < g.block_rows(); ++br) real += g.row_ptr[br] != kGhostRow;
    ASSERT_EQ(r.kept.size(), real);
    EXPECT_LT(r.kept.size(), g.block_rows());
    EXPECT_EQ(r.a.rows, real * 5);
    EXPECT_EQ(r.a.nblocks(), b.nblocks());
    const auto x = test::random_vector<cf>(g.cols, 7, false);
    const auto y = multiply(b, x);
    std::vector<cf> xc(r.a.cols);
    for (size64 i = 0; i < r.kept.size(); ++i)
      for (int k = 0; k < 5; ++k) xc[i * 5 + k] = x[r.kept[i] * 5 + k];
    const auto yc = multiply(r.a, xc);
    for (size64 i = 0; i < r.kept.size(); ++i)
      for (int k = 0; k < 5; ++k)
        ASSERT_EQ(yc[i * 5 + k], y[r.kept[i] * 5 + k]) << "row " << i * 5 + k;
  }
  // block row 1 is empty but block row 0 refers to its column
  Bcsr<double> a;
  a.rows = a.cols = 4;
  a.block = {2, 2};
  a.row_ptr = {0, 2, 2};
  a.col = {0, 1};
  a.val = {1, 2, 3, 4, 5, 6, 7, 8};
  EXPECT_THROW(drop_empty_block_rows(a), Error);
  a.col = {0, 0};
  a.row_ptr = {0, 1, 1};
  a.col = {0};
  a.val = {1, 2, 3, 4};
  const auto ok = drop_empty_block_rows(a);
  EXPECT_EQ(ok.kept, std::vector<size64>{0});
  EXPECT_EQ(ok.a.rows, 2u);
  a.cols = 6;  // not square
  EXPECT_THROW(drop_empty_block_rows(a), Error);
}

TEST(TraceGenerator, BlockDiagonalProblem) {
  const TraceCase c = parse_trace_case("euler2d:5x6,blocks=3");
  const auto blocks = generate_trace<double>(c);
  ASSERT_EQ(blocks.size(), 3u);
  const Csr<double> a = block_diagonal(blocks);
  validate(a);
  EXPECT_EQ(a.rows, 3 * trace_sizes(c).rows_per_block);
  const auto x = test::random_vector<double>(a.cols, 5, false);
  const auto y = multiply(a, x);
  for (int k = 0; k < 3; ++k) {
    const size64 n = blocks[k].rows;
    const std::vector<double> xk(x.begin() + k * n, x.begin() + (k + 1) * n);
    EXPECT_EQ(multiply(blocks[k], xk),
              std::vector<double>(y.begin() + k * n, y.begin() + (k + 1) * n));
  }
}

/// Unrestarted GMRES (Saad, MGS Arnoldi, Givens rotations): relative residual
/// after each iteration.
std::vector<double> gmres_history(const Csr<cd>& a, const std::vector<cd>& b, int iterations) {
  const std::size_t n = b.size();
  auto dot = [&](const std::vector<cd>& u, const std::vector<cd>& v) {
    cd s = 0;
    for (std::size_t i = 0; i < n; ++i) s += std::conj(u[i]) * v[i];
    return s;
  };
  const double beta = std::sqrt(dot(b, b).real());
  std::vector<std::vector<cd>> V{b};
  for (auto& v : V[0]) v /= beta;
  std::vector<std::vector<cd>> H;
  std::vector<cd> cs, sn, g{beta};
  std::vector<double> history;
  for (int j = 0; j < iterations; ++j) {
    std::vector<cd> w = multiply(a, V[j]);
    std::vector<cd> h(j + 2);
    for (int i = 0; i <= j; ++i) {
      h[i] = dot(V[i], w);
      for (std::size_t k = 0; k < n; ++k) w[k] -= h[i] * V[i][k];
    }
    h[j + 1] = std::sqrt(dot(w, w).real());
    // Rotation G = [conj(c) conj(s); -s c] maps (h_j, h_j+1) to (r, 0).
    auto rotate = [&](int i, cd& u, cd& v) {
      const cd t = std::conj(cs[i]) * u + std::conj(sn[i]) * v;
      v = -sn[i] * u + cs[i] * v;
      u = t;
    };
    for (int i = 0; i < j; ++i) rotate(i, h[i], h[i + 1]);
    const double r = std::hypot(std::abs(h[j]), std::abs(h[j + 1]));
    cs.push_back(h[j] / r);
    sn.push_back(h[j + 1] / r);
    g.push_back(0);
    rotate(j, g[j], g[j + 1]);
    history.push_back(std::abs(g[j + 1]) / beta);
    for (auto& v : w) v /= h[j + 1];
    V.push_back(w);
  }
  return history;
}

TEST(TraceGenerator, GmresConvergesOnAGeneratedBlock) {
  const GappedBcsr<cd> g = generate_trace_block<cd>(parse_trace_case("trace:6x8x6"), 0);
  const Csr<cd> a = to_csr(g);
  // Right-hand side on the stored rows only (ghost rows are not unknowns).
  std::vector<cd> b = test::random_vector<cd>(a.rows, 9, false);
  for (size64 i = 0; i < a.rows; ++i)
    if (a.row_ptr[i] == a.row_ptr[i + 1]) b[i] = 0;
  const auto history = gmres_history(a, b, 60);
  EXPECT_LT(history.back(), 1e-8) << "relative residual after 60 iterations";
  EXPECT_LT(history[19], 1e-3) << "after 20 iterations";
}

}  // namespace
}  // namespace tessera::sparse
