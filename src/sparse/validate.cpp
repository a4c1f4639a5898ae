#include "sparse/validate.hpp"

#include <fmt/format.h>

#include "core/error.hpp"

namespace tessera::sparse {

namespace {

template <class... Args>
[[noreturn]] void fail(const char* format, fmt::format_string<Args...> f, Args&&... args) {
  throw Error(
      fmt::format("invalid {} matrix: {}", format, fmt::format(f, std::forward<Args>(args)...)));
}

void check_dims(const char* f, size64 rows, size64 cols) {
  if (rows < 0 || cols < 0 || rows > kMaxIndex || cols > kMaxIndex)
    fail(f, "dimensions {} x {} outside [0, 2^31-1]", rows, cols);
}

void check_length(const char* f, const char* what, std::size_t have, size64 want) {
  if (static_cast<size64>(have) != want)
    fail(f, "{} has {} elements, expected {}", what, have, want);
}

void check_range(const char* f, const char* what, const std::vector<index_t>& v, size64 lo,
                 size64 hi) {
  for (std::size_t k = 0; k < v.size(); ++k)
    if (v[k] < lo || v[k] >= hi) fail(f, "{}[{}] = {} outside [{}, {})", what, k, v[k], lo, hi);
}

/// Offsets: starts at 0, never decreases, ends at `total`.
void check_pointer(const char* f, const char* what, const std::vector<index_t>& p, size64 total) {
  if (p.empty() || p.front() != 0) fail(f, "{} must start with 0", what);
  for (std::size_t k = 1; k < p.size(); ++k)
    if (p[k] < p[k - 1]) fail(f, "{} decreases at {}", what, k);
  if (p.back() != total) fail(f, "{} ends at {}, expected {}", what, p.back(), total);
}

/// Columns strictly ascending within each range [p[i], p[i+1]).
void check_sorted(const char* f, const std::vector<index_t>& p, const std::vector<index_t>& col) {
  for (std::size_t i = 0; i + 1 < p.size(); ++i)
    for (index_t k = p[i] + 1; k < p[i + 1]; ++k)
      if (col[k] <= col[k - 1])
        fail(f, "columns of row {} not strictly ascending at entry {}", i, k);
}

/// A row map: empty, or `stored` distinct rows below `rows`; ascending if required.
void check_map(const char* f, const std::vector<index_t>& map, size64 stored, size64 rows,
               bool ascending) {
  if (map.empty()) {  // the identity, or nothing stored at all
    if (stored != rows && stored != 0)
      fail(f, "{} stored rows but no row map for {} rows", stored, rows);
    return;
  }
  check_length(f, "row map", map.size(), stored);
  check_range(f, "row map", map, 0, rows);
  std::vector<char> seen(static_cast<std::size_t>(rows), 0);
  for (std::size_t k = 0; k < map.size(); ++k) {
    if (seen[map[k]]++) fail(f, "row {} appears twice in the row map", map[k]);
    if (ascending && k > 0 && map[k] <= map[k - 1]) fail(f, "row map not ascending at {}", k);
  }
}

/// Entries of blocks that fall outside the matrix (cut-off last block row or
/// column) must be zero.
template <class M>
void check_block_overhang(const char* f, const M& a, size64 block_row_of_first, index_t first,
                          index_t last) {
  for (index_t b = first; b < last; ++b)
    for (int i = 0; i < a.block.r; ++i)
      for (int j = 0; j < a.block.c; ++j) {
        const bool outside = block_row_of_first * a.block.r + i >= a.rows ||
                             static_cast<size64>(a.col[b]) * a.block.c + j >= a.cols;
        if (outside &&
            a.val[b * a.block.size() + a.block.offset(i, j)] != typename M::value_type(0))
          fail(f, "block {} has a nonzero outside the matrix", b);
      }
}

}  // namespace

template <Scalar T>
void validate(const Coo<T>& a) {
  check_dims("COO", a.rows, a.cols);
  check_length("COO", "row", a.row.size(), a.nnz());
  check_length("COO", "col", a.col.size(), a.nnz());
  check_range("COO", "row", a.row, 0, a.rows);
  check_range("COO", "col", a.col, 0, a.cols);
}

template <Scalar T>
void validate(const Csr<T>& a) {
  check_dims("CSR", a.rows, a.cols);
  check_length("CSR", "row_ptr", a.row_ptr.size(), a.rows + 1);
  check_length("CSR", "col", a.col.size(), a.nnz());
  check_pointer("CSR", "row_ptr", a.row_ptr, a.nnz());
  check_range("CSR", "col", a.col, 0, a.cols);
  check_sorted("CSR", a.row_ptr, a.col);
}

template <Scalar T>
void validate(const Dia<T>& a) {
  check_dims("DIA", a.rows, a.cols);
  check_length("DIA", "data", a.data.size(), a.rows * a.diagonals());
  check_range("DIA", "offsets", a.offsets, -a.rows + 1, a.cols);
  for (size64 d = 0; d < a.diagonals(); ++d) {
    if (d > 0 && a.offsets[d] <= a.offsets[d - 1]) fail("DIA", "offsets not ascending at {}", d);
    for (size64 i = 0; i < a.rows; ++i) {
      const size64 j = i + a.offsets[d];
      if ((j < 0 || j >= a.cols) && a.data[d * a.rows + i] != T(0))
        fail("DIA", "placeholder of diagonal {} in row {} is not zero", a.offsets[d], i);
    }
  }
}

template <Scalar T>
void validate(const Bcsr<T>& a) {
  const char* f = "BCSR";
  check_dims(f, a.rows, a.cols);
  if (a.block.r < 1 || a.block.c < 1) fail(f, "block size {}x{}", a.block.r, a.block.c);
  check_map(f, a.block_row_map, a.stored_block_rows(), a.block_rows(), true);
  check_pointer(f, "row_ptr", a.row_ptr, a.nblocks());
  check_range(f, "col", a.col, 0, a.block_cols());
  check_sorted(f, a.row_ptr, a.col);
  check_length(f, "val", a.val.size(), a.nblocks() * a.block.size());
  for (size64 sb = 0; sb < a.stored_block_rows(); ++sb)
    check_block_overhang(f, a, mapped_row(a.block_row_map, sb), a.row_ptr[sb], a.row_ptr[sb + 1]);
}

template <Scalar T>
void validate(const GappedBcsr<T>& a) {
  const char* f = "gapped BCSR";
  check_dims(f, a.rows, a.cols);
  const size64 nbr = a.block_rows();
  check_length(f, "row_ptr", a.row_ptr.size(), nbr + 1);
  if (a.row_ptr[nbr] != a.nblocks())
    fail(f, "last row_ptr entry {} != {} blocks", a.row_ptr[nbr], a.nblocks());
  index_t prev = 0;
  for (size64 br = 0; br <= nbr; ++br) {
    if (a.row_ptr[br] == kGhostRow) continue;
    if (a.row_ptr[br] < prev) fail(f, "row_ptr decreases at block row {}", br);
    prev = a.row_ptr[br];
  }
  check_range(f, "col", a.col, 0, a.block_cols());
  check_length(f, "val", a.val.size(), a.nblocks() * a.block.size());
  for (size64 br = 0; br < nbr; ++br) {
    if (a.row_ptr[br] == kGhostRow) continue;
    size64 next = br + 1;
    while (a.row_ptr[next] == kGhostRow) ++next;
    for (index_t b = a.row_ptr[br] + 1; b < a.row_ptr[next]; ++b)
      if (a.col[b] <= a.col[b - 1]) fail(f, "block columns of block row {} not ascending", br);
    check_block_overhang(f, a, br, a.row_ptr[br], a.row_ptr[next]);
  }
}

template <Scalar T>
void validate(const Ell<T>& a) {
  const char* f = "ELL";
  check_dims(f, a.rows, a.cols);
  check_map(f, a.row_map, a.stored_rows, a.rows, false);
  if (a.subsection < 1 || a.width % a.subsection != 0)
    fail(f, "width {} is not a multiple of the subsection length {}", a.width, a.subsection);
  check_length(f, "col", a.col.size(), a.width * a.stored_rows);
  check_length(f, "val", a.val.size(), a.width * a.stored_rows);
  check_range(f, "col", a.col, 0, a.cols);
}

template <Scalar T>
void validate(const Bell<T>& a) {
  const char* f = "BELL";
  check_dims(f, a.rows, a.cols);
  const size64 nbr = ceil_div(a.rows, a.block.r), nbc = ceil_div(a.cols, a.block.c);
  check_map(f, a.block_row_map, a.stored_block_rows, nbr, true);
  if (a.subsection < 1 || a.width % a.subsection != 0)
    fail(f, "width {} is not a multiple of the subsection length {}", a.width, a.subsection);
  check_length(f, "val", a.val.size(), a.stored_rows() * a.width * a.block.c);
  if (a.index == BellIndex::block_row) {
    check_length(f, "col", a.col.size(), a.stored_block_rows * a.width);
    check_range(f, "col", a.col, 0, nbc);
  } else {
    check_length(f, "col", a.col.size(), a.stored_rows() * a.width);
    check_range(f, "col", a.col, 0, nbc * a.block.c);
    for (std::size_t k = 0; k < a.col.size(); ++k)
      if (a.col[k] % a.block.c != 0) fail(f, "column index {} is not a block start", a.col[k]);
  }
}

template <Scalar T>
void validate(const Sell<T>& a) {
  const char* f = "SELL";
  check_dims(f, a.rows, a.cols);
  if (a.slice_height < 1 || a.sort_window < 1)
    fail(f, "C={} sigma={}", a.slice_height, a.sort_window);
  check_length(f, "slice_ptr", a.slice_ptr.size(), ceil_div(a.rows, a.slice_height) + 1);
  check_pointer(f, "slice_ptr", a.slice_ptr, static_cast<size64>(a.val.size()));
  for (size64 s = 0; s < a.slices(); ++s)
    if ((a.slice_ptr[s + 1] - a.slice_ptr[s]) % a.slice_height != 0)
      fail(f, "slice {} is not C rows wide", s);
  check_map(f, a.row_map, a.rows, a.rows, false);
  check_length(f, "col", a.col.size(), static_cast<size64>(a.val.size()));
  check_range(f, "col", a.col, 0, a.cols);
}

template <Scalar T>
void validate(const Hyb<T>& a) {
  validate(a.ell);
  validate(a.coo);
  if (a.coo.rows != a.ell.rows || a.coo.cols != a.ell.cols)
    fail("HYB", "ELL and COO parts differ in size");
}

#define TESSERA_INSTANTIATE_FORMAT(Format, T) template void validate(const Format<T>&);
#define TESSERA_INSTANTIATE(T) TESSERA_SPARSE_FOR_EACH_FORMAT(TESSERA_INSTANTIATE_FORMAT, T)
TESSERA_SPARSE_FOR_EACH_SCALAR(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE
#undef TESSERA_INSTANTIATE_FORMAT

}  // namespace tessera::sparse
