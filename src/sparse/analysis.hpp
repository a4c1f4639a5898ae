// Structure statistics of a matrix: row lengths, bandwidth, diagonals, and its
// block structure for a given block size (what `tessera sparse info` prints).
#pragma once
#include "sparse/formats.hpp"

namespace tessera::sparse {

struct RowStats {
  size64 rows = 0, cols = 0;
  size64 entries = 0;         ///< stored entries
  size64 explicit_zeros = 0;  ///< stored entries equal to 0
  size64 empty_rows = 0;
  size64 min_length = 0, max_length = 0;
  double mean_length = 0, stddev_length = 0;
  size64 bandwidth = 0;  ///< max |i - j| over the entries
  size64 diagonals = 0;  ///< distinct j - i (DIA's diagonal count)
};
template <Scalar T>
RowStats row_stats(const Csr<T>& a);
/// The same statistics from entries alone (duplicates summed, as to_csr
/// does): time O(nnz log nnz) and memory O(nnz), whatever rows and cols are,
/// for matrices whose declared size dwarfs their entries (a CSR's row pointers
/// would follow the rows).
template <Scalar T>
RowStats row_stats(const Coo<T>& a);
/// The entries sorted by (row, column) with duplicates summed.
template <Scalar T>
Coo<T> sorted_unique(const Coo<T>& a);

struct BlockStats {
  int r = 1, c = 1;
  size64 block_rows = 0;
  size64 empty_block_rows = 0;  ///< TRACE's placeholders if the gaps are ghost cells
  size64 blocks = 0;
  size64 min_per_row = 0, max_per_row = 0;  ///< over non-empty block rows
  double mean_per_row = 0;                  ///< over non-empty block rows
  size64 slots = 0;                         ///< blocks * r * c
  size64 zero_slots = 0;                    ///< zeros inside stored blocks
};
template <Scalar T>
BlockStats block_stats(const Csr<T>& a, int r, int c);

/// How far a square matrix is from Hermitian (symmetric for real values):
/// max |a_ij - conj(a_ji)| over all i, j, relative to max |a_ij| (0 for an
/// all-zero matrix). 0 exactly for a Hermitian matrix; duplicates are
/// summed first, an entry without its mirror counts in full. Error unless
/// square. What `tessera solve --method cg` checks before it runs CG.
template <Scalar T>
double hermitian_defect(const Csr<T>& a);

}  // namespace tessera::sparse
