// Block formats: BCSR (either in-block layout, optionally row-compressed),
// TRACE's gapped BCSR, and blocked ELL.
#include <algorithm>
#include <numeric>

#include <fmt/format.h>

#include "core/error.hpp"
#include "sparse/convert_detail.hpp"

namespace tessera::sparse {

namespace {

void check_block_shape(const BlockShape& b) {
  if (b.r < 1 || b.c < 1 || b.r > 64 || b.c > 64)
    throw Error(fmt::format("block size {}x{} is not supported (1..64 per side)", b.r, b.c));
}

/// Allocates val/col for `nblocks` blocks, checking the 32-bit limits.
template <Scalar T>
void allocate_blocks(Bcsr<T>& out, size64 nblocks) {
  out.col.resize(detail::checked_length(nblocks, "BCSR blocks"));
  out.val.assign(
      detail::checked_length(checked_mul(nblocks, out.block.size(), "BCSR values"), "BCSR values"),
      T(0));
}

}  // namespace

template <Scalar T>
Bcsr<T> to_bcsr(const Csr<T>& a, BcsrOptions opt) {
  Bcsr<T> out;
  out.rows = a.rows;
  out.cols = a.cols;
  out.block = {opt.r, opt.c, opt.layout};
  check_block_shape(out.block);
  const size64 nbr = to_index(out.block_rows(), "BCSR block rows");
  const size64 nbc = to_index(out.block_cols(), "BCSR block columns");
  const int r = opt.r, c = opt.c;
  auto rows_of = [&](size64 br) {
    return std::pair<size64, size64>{br * r, std::min<size64>(a.rows, (br + 1) * r)};
  };
  // Pass 1: distinct block columns per block row (a marker per block column,
  // one marker array per thread).
  std::vector<size64> count(static_cast<std::size_t>(nbr) + 1, 0);
#pragma omp parallel
  {
    std::vector<index_t> mark(static_cast<std::size_t>(nbc), -1);
#pragma omp for schedule(dynamic, 256)
    for (size64 br = 0; br < nbr; ++br) {
      auto [lo, hi] = rows_of(br);
      size64 n = 0;
      for (size64 i = lo; i < hi; ++i)
        for (index_t p = a.row_ptr[i]; p < a.row_ptr[i + 1]; ++p)
          if (mark[a.col[p] / c] != br) {
            mark[a.col[p] / c] = static_cast<index_t>(br);
            ++n;
          }
      count[br + 1] = n;
    }
  }
  std::partial_sum(count.begin(), count.end(), count.begin());
  to_index(count.back(), "BCSR blocks");
  out.row_ptr.assign(count.begin(), count.end());  // fits: checked above
  allocate_blocks(out, count.back());
  // Pass 2: sorted block columns, then scatter the entries into their blocks.
#pragma omp parallel
  {
    std::vector<index_t> slot(static_cast<std::size_t>(nbc), -1);
#pragma omp for schedule(dynamic, 256)
    for (size64 br = 0; br < nbr; ++br) {
      auto [lo, hi] = rows_of(br);
      index_t* cols = out.col.data() + out.row_ptr[br];
      size64 n = 0;
      for (size64 i = lo; i < hi; ++i)
        for (index_t p = a.row_ptr[i]; p < a.row_ptr[i + 1]; ++p)
          if (slot[a.col[p] / c] < 0) {
            slot[a.col[p] / c] = 0;
            cols[n++] = a.col[p] / c;
          }
      std::sort(cols, cols + n);
      for (size64 k = 0; k < n; ++k) slot[cols[k]] = static_cast<index_t>(out.row_ptr[br] + k);
      for (size64 i = lo; i < hi; ++i)
        for (index_t p = a.row_ptr[i]; p < a.row_ptr[i + 1]; ++p) {
          const size64 b = slot[a.col[p] / c];
          out.val[b * out.block.size() + out.block.offset(static_cast<int>(i - lo), a.col[p] % c)] =
              a.val[p];
        }
      for (size64 k = 0; k < n; ++k) slot[cols[k]] = -1;
    }
  }
  return opt.compress_rows ? compress_rows(out) : out;
}

template <Scalar T>
Csr<T> to_csr(const Bcsr<T>& a, Zeros zeros) {
  const int r = a.block.r, c = a.block.c;
  const size64 bs = a.block.size();
  auto keep = [&](size64 j, const T& v) {
    return j < a.cols && (zeros == Zeros::keep || v != T(0));
  };
  // Visits the entries of stored block row sb that fall in in-block row i, in
  // ascending column order (blocks are sorted by block column).
  auto for_row = [&](size64 sb, int i, auto&& f) {
    for (index_t b = a.row_ptr[sb]; b < a.row_ptr[sb + 1]; ++b)
      for (int j = 0; j < c; ++j) {
        const size64 col = static_cast<size64>(a.col[b]) * c + j;
        const T& v = a.val[b * bs + a.block.offset(i, j)];
        if (keep(col, v)) f(col, v);
      }
  };
  auto out = same_shape<Csr<T>>(a);
  std::vector<size64> len(static_cast<std::size_t>(a.rows) + 1, 0);
#pragma omp parallel for schedule(dynamic, 256)
  for (size64 sb = 0; sb < a.stored_block_rows(); ++sb) {
    const size64 br = mapped_row(a.block_row_map, sb);
    for (int i = 0; i < r && br * r + i < a.rows; ++i) {
      size64 n = 0;
      for_row(sb, i, [&](size64, const T&) { ++n; });
      len[br * r + i + 1] = n;
    }
  }
  std::partial_sum(len.begin(), len.end(), len.begin());
  to_index(len.back(), "CSR entries");
  out.row_ptr.assign(len.begin(), len.end());
  out.col.resize(static_cast<std::size_t>(len.back()));
  out.val.resize(out.col.size());
#pragma omp parallel for schedule(dynamic, 256)
  for (size64 sb = 0; sb < a.stored_block_rows(); ++sb) {
    const size64 br = mapped_row(a.block_row_map, sb);
    for (int i = 0; i < r && br * r + i < a.rows; ++i) {
      index_t p = out.row_ptr[br * r + i];
      for_row(sb, i, [&](size64 col, const T& v) {
        out.col[p] = static_cast<index_t>(col);
        out.val[p++] = v;
      });
    }
  }
  return out;
}

template <Scalar T>
Bcsr<T> with_layout(const Bcsr<T>& a, BlockLayout layout) {
  Bcsr<T> out = a;
  out.block.layout = layout;
  const size64 bs = a.block.size();
#pragma omp parallel for schedule(static)
  for (size64 b = 0; b < a.nblocks(); ++b)
    for (int i = 0; i < a.block.r; ++i)
      for (int j = 0; j < a.block.c; ++j)
        out.val[b * bs + out.block.offset(i, j)] = a.val[b * bs + a.block.offset(i, j)];
  return out;
}

template <Scalar T>
Bcsr<T> compress_rows(const Bcsr<T>& a) {
  Bcsr<T> out = a;
  out.row_ptr.assign(1, 0);
  out.block_row_map.clear();
  for (size64 sb = 0; sb < a.stored_block_rows(); ++sb)
    if (a.row_ptr[sb + 1] > a.row_ptr[sb]) {
      out.row_ptr.push_back(a.row_ptr[sb + 1]);
      out.block_row_map.push_back(static_cast<index_t>(mapped_row(a.block_row_map, sb)));
    }
  return out;
}

template <Scalar T>
RestrictedSystem<T> drop_empty_block_rows(const Bcsr<T>& a) {
  const int bs = a.block.r;
  if (a.rows != a.cols || a.block.c != bs || a.rows % static_cast<size64>(bs) != 0)
    throw Error(
        fmt::format("dropping empty block rows needs a square matrix of square blocks dividing it "
                    "({}x{}, blocks {}x{})",
                    a.rows, a.cols, a.block.r, a.block.c));
  const size64 nb = a.block_rows();
  std::vector<index_t> row_of(static_cast<std::size_t>(nb), -1);  // stored row of each block row
  for (size64 sb = 0; sb < a.stored_block_rows(); ++sb)
    if (a.row_ptr[sb + 1] > a.row_ptr[sb])
      row_of[mapped_row(a.block_row_map, sb)] = static_cast<index_t>(sb);
  RestrictedSystem<T> out;
  std::vector<index_t> new_index(static_cast<std::size_t>(nb), -1);
  for (size64 br = 0; br < nb; ++br)
    if (row_of[br] >= 0) {
      new_index[br] = static_cast<index_t>(out.kept.size());
      out.kept.push_back(br);
    }
  Bcsr<T>& c = out.a;
  c.block = a.block;
  c.rows = c.cols = static_cast<size64>(out.kept.size()) * static_cast<size64>(bs);
  c.row_ptr.assign(1, 0);
  c.col.reserve(a.col.size());
  c.val.reserve(a.val.size());
  const size64 bsz = a.block.size();
  for (size64 br : out.kept) {
    const auto sb = static_cast<size64>(row_of[br]);
    for (index_t b = a.row_ptr[sb]; b < a.row_ptr[sb + 1]; ++b) {
      const index_t j = new_index[static_cast<std::size_t>(a.col[b])];
      if (j < 0)
        throw Error(fmt::format(
            "block row {} refers to block column {}, whose row is empty: dropping it would "
            "lose that coupling",
            br, a.col[b]));
      c.col.push_back(j);
      c.val.insert(c.val.end(), a.val.begin() + static_cast<std::ptrdiff_t>(b * bsz),
                   a.val.begin() + static_cast<std::ptrdiff_t>((b + 1) * bsz));
    }
    c.row_ptr.push_back(static_cast<index_t>(c.col.size()));
  }
  return out;
}

template <Scalar T>
Bcsr<T> to_bcsr(const GappedBcsr<T>& a) {
  auto out = same_entries<Bcsr<T>>(a);
  const size64 nbr = a.block_rows();
  for (size64 br = 0; br < nbr; ++br) {
    if (a.row_ptr[br] == kGhostRow) continue;
    size64 next = br + 1;  // the row's end: the next entry that is not a placeholder
    while (a.row_ptr[next] == kGhostRow) ++next;
    out.row_ptr.push_back(a.row_ptr[next]);
    out.block_row_map.push_back(static_cast<index_t>(br));
  }
  return out;
}

template <Scalar T>
GappedBcsr<T> to_gapped(const Bcsr<T>& a) {
  auto out = same_entries<GappedBcsr<T>>(a);
  const size64 nbr = to_index(a.block_rows(), "BCSR block rows");
  out.row_ptr.assign(static_cast<std::size_t>(nbr) + 1, kGhostRow);
  for (size64 sb = 0; sb < a.stored_block_rows(); ++sb)
    out.row_ptr[mapped_row(a.block_row_map, sb)] = a.row_ptr[sb];
  out.row_ptr[nbr] = static_cast<index_t>(a.nblocks());
  return out;
}

template <Scalar T>
Csr<T> to_csr(const GappedBcsr<T>& a, Zeros zeros) {
  return to_csr(to_bcsr(a), zeros);
}

template <Scalar T>
Bell<T> to_bell(const Bcsr<T>& a, BellOptions opt) {
  if (opt.subsection < 1) throw Error("BELL subsection length must be at least 1");
  auto out = same_shape<Bell<T>>(a);
  out.index = opt.index;
  out.subsection = opt.subsection;
  out.block_row_map = a.block_row_map;
  out.stored_block_rows = a.stored_block_rows();
  size64 longest = 0;
  for (size64 sb = 0; sb < out.stored_block_rows; ++sb)
    longest = std::max<size64>(longest, a.row_ptr[sb + 1] - a.row_ptr[sb]);
  out.width = detail::round_up(longest, opt.subsection);
  const int r = a.block.r, c = a.block.c;
  const size64 srows = out.stored_rows();
  out.val.assign(detail::checked_length(
                     checked_mul(checked_mul(srows, out.width, "BELL slots"), c, "BELL values"),
                     "BELL values"),
                 T(0));
  const size64 per_slot = opt.index == BellIndex::scalar_row ? srows : out.stored_block_rows;
  out.col.resize(
      detail::checked_length(checked_mul(per_slot, out.width, "BELL indices"), "BELL indices"));
  const size64 max_bcol = std::max<size64>(a.block_cols() - 1, 0);
#pragma omp parallel for schedule(static)
  for (size64 sb = 0; sb < out.stored_block_rows; ++sb) {
    const size64 br = mapped_row(a.block_row_map, sb);
    const index_t pad = static_cast<index_t>(std::min(br, max_bcol));
    for (size64 k = 0; k < out.width; ++k) {
      const size64 b = a.row_ptr[sb] + k;
      const bool real = b < a.row_ptr[sb + 1];
      const index_t bcol = real ? a.col[b] : pad;
      if (opt.index == BellIndex::block_row)
        out.col[k * out.stored_block_rows + sb] = bcol;
      else
        for (int i = 0; i < r; ++i) out.col[k * srows + sb * r + i] = bcol * c;
      if (real)
        for (int i = 0; i < r; ++i)
          for (int j = 0; j < c; ++j)
            out.val[out.at(sb, k, i, j)] = a.val[b * a.block.size() + a.block.offset(i, j)];
    }
  }
  return out;
}

template <Scalar T>
Bcsr<T> to_bcsr(const Bell<T>& a, BlockLayout layout) {
  Bcsr<T> out;
  out.rows = a.rows;
  out.cols = a.cols;
  out.block = {a.block.r, a.block.c, layout};
  out.block_row_map = a.block_row_map;
  auto zero_block = [&](size64 sb, size64 k) {
    for (int i = 0; i < a.block.r; ++i)
      for (int j = 0; j < a.block.c; ++j)
        if (a.val[a.at(sb, k, i, j)] != T(0)) return false;
    return true;
  };
  for (size64 sb = 0; sb < a.stored_block_rows; ++sb) {
    size64 n = a.width;
    while (n > 0 && zero_block(sb, n - 1)) --n;
    for (size64 k = 0; k < n; ++k) {
      out.col.push_back(a.block_col(sb, k));
      const size64 base = static_cast<size64>(out.val.size());
      out.val.resize(out.val.size() + out.block.size());
      for (int i = 0; i < a.block.r; ++i)
        for (int j = 0; j < a.block.c; ++j)
          out.val[base + out.block.offset(i, j)] = a.val[a.at(sb, k, i, j)];
    }
    out.row_ptr.push_back(to_index(out.nblocks(), "BCSR blocks"));
  }
  return out;
}

template <Scalar T>
Csr<T> to_csr(const Bell<T>& a, Zeros zeros) {
  return to_csr(to_bcsr(a), zeros);
}

#define TESSERA_INSTANTIATE(T)                                        \
  template Bcsr<T> to_bcsr(const Csr<T>&, BcsrOptions);               \
  template Csr<T> to_csr(const Bcsr<T>&, Zeros);                      \
  template Bcsr<T> with_layout(const Bcsr<T>&, BlockLayout);          \
  template Bcsr<T> compress_rows(const Bcsr<T>&);                     \
  template RestrictedSystem<T> drop_empty_block_rows(const Bcsr<T>&); \
  template Bcsr<T> to_bcsr(const GappedBcsr<T>&);                     \
  template GappedBcsr<T> to_gapped(const Bcsr<T>&);                   \
  template Csr<T> to_csr(const GappedBcsr<T>&, Zeros);                \
  template Bell<T> to_bell(const Bcsr<T>&, BellOptions);              \
  template Bcsr<T> to_bcsr(const Bell<T>&, BlockLayout);              \
  template Csr<T> to_csr(const Bell<T>&, Zeros);
TESSERA_SPARSE_FOR_EACH_SCALAR(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera::sparse
