// Padded scalar formats: ELL, SELL-C-sigma and HYB (ELL + COO).
#include <algorithm>
#include <numeric>

#include <fmt/format.h>

#include "core/error.hpp"
#include "sparse/convert_detail.hpp"

namespace tessera::sparse {

namespace detail {

template <Scalar T>
Ell<T> build_ell(const Csr<T>& a, std::optional<std::vector<index_t>> order, size64 width,
                 size64 subsection) {
  auto out = same_shape<Ell<T>>(a);
  out.subsection = subsection;
  out.width = a.cols > 0 ? width : 0;  // without columns no padding slot could point anywhere
  out.stored_rows = order ? static_cast<size64>(order->size()) : a.rows;
  if (order) out.row_map = std::move(*order);
  width = out.width;
  const auto slots = checked_length(checked_mul(out.stored_rows, width, "ELL slots"), "ELL slots");
  out.col.resize(slots);
  out.val.assign(slots, T(0));
#pragma omp parallel for schedule(static)
  for (size64 s = 0; s < out.stored_rows; ++s) {
    const size64 i = mapped_row(out.row_map, s);
    const size64 n = std::min(row_length(a, i), width);
    for (size64 k = 0; k < n; ++k) {
      out.col[out.at(s, k)] = a.col[a.row_ptr[i] + k];
      out.val[out.at(s, k)] = a.val[a.row_ptr[i] + k];
    }
    for (size64 k = n; k < width; ++k) out.col[out.at(s, k)] = padding_column(i, a.cols);
  }
  return out;
}

}  // namespace detail

template <Scalar T>
Ell<T> to_ell(const Csr<T>& a, EllOptions opt) {
  if (opt.subsection < 1) throw Error("ELL subsection length must be at least 1");
  std::optional<std::vector<index_t>> order;
  if (opt.sort_rows || opt.drop_empty_rows) {
    order.emplace();
    for (size64 i = 0; i < a.rows; ++i)
      if (!opt.drop_empty_rows || detail::row_length(a, i) > 0)
        order->push_back(static_cast<index_t>(i));
    if (opt.sort_rows)
      std::stable_sort(order->begin(), order->end(), [&](index_t x, index_t y) {
        return detail::row_length(a, x) < detail::row_length(a, y);
      });
  }
  size64 longest = 0;
  for (size64 i = 0; i < a.rows; ++i) longest = std::max(longest, detail::row_length(a, i));
  return detail::build_ell(a, std::move(order), detail::round_up(longest, opt.subsection),
                           opt.subsection);
}

namespace {
/// emit(i, j, v) for every nonzero slot of an ELL matrix (padding has value 0).
template <Scalar T, class Emit>
void emit_nonzero_slots(const Ell<T>& a, Emit&& emit) {
  for (size64 s = 0; s < a.stored_rows; ++s)
    for (size64 k = 0; k < a.width; ++k)
      if (a.val[a.at(s, k)] != T(0))
        emit(mapped_row(a.row_map, s), a.col[a.at(s, k)], a.val[a.at(s, k)]);
}
}  // namespace

template <Scalar T>
Csr<T> to_csr(const Ell<T>& a) {
  return detail::csr_from_entries<T>(a.rows, a.cols,
                                     [&](auto emit) { emit_nonzero_slots(a, emit); });
}

template <Scalar T>
Sell<T> to_sell(const Csr<T>& a, SellOptions opt) {
  if (opt.slice_height < 1 || opt.sort_window < 1)
    throw Error(fmt::format("SELL-C-sigma needs C >= 1 and sigma >= 1 (got C={}, sigma={})",
                            opt.slice_height, opt.sort_window));
  auto out = same_shape<Sell<T>>(a);
  out.slice_height = opt.slice_height;
  out.sort_window = opt.sort_window;
  const size64 C = opt.slice_height;
  std::vector<index_t> perm(static_cast<std::size_t>(to_index(a.rows, "SELL rows")));
  std::iota(perm.begin(), perm.end(), 0);
  if (opt.sort_window > 1) {
    for (size64 w = 0; w < a.rows; w += opt.sort_window) {
      auto b = perm.begin() + w, e = perm.begin() + std::min<size64>(a.rows, w + opt.sort_window);
      std::stable_sort(b, e, [&](index_t x, index_t y) {
        return detail::row_length(a, x) > detail::row_length(a, y);
      });
    }
    out.row_map = perm;
  }
  const size64 slices = ceil_div(a.rows, C);
  std::vector<size64> ptr(static_cast<std::size_t>(slices) + 1, 0);
  for (size64 s = 0; s < slices; ++s) {
    size64 w = 0;
    for (size64 p = s * C; p < std::min(a.rows, (s + 1) * C); ++p)
      w = std::max(w, detail::row_length(a, perm[p]));
    ptr[s + 1] = ptr[s] + w * C;
  }
  to_index(ptr.back(), "SELL slots");
  out.slice_ptr.assign(ptr.begin(), ptr.end());
  out.col.resize(static_cast<std::size_t>(ptr.back()));
  out.val.assign(out.col.size(), T(0));
#pragma omp parallel for schedule(static)
  for (size64 s = 0; s < slices; ++s) {
    const size64 w = out.slice_width(s);
    for (size64 q = 0; q < C; ++q) {
      const size64 p = s * C + q;
      const size64 i = p < a.rows ? perm[p] : p;  // p >= rows: a padding row
      const size64 n = p < a.rows ? detail::row_length(a, i) : 0;
      for (size64 k = 0; k < w; ++k) {
        const size64 at = ptr[s] + k * C + q;
        if (k < n) {
          out.col[at] = a.col[a.row_ptr[i] + k];
          out.val[at] = a.val[a.row_ptr[i] + k];
        } else {
          out.col[at] = detail::padding_column(i, a.cols);
        }
      }
    }
  }
  return out;
}

template <Scalar T>
Csr<T> to_csr(const Sell<T>& a) {
  return detail::csr_from_entries<T>(a.rows, a.cols, [&](auto emit) {
    const size64 C = a.slice_height;
    for (size64 s = 0; s < a.slices(); ++s)
      for (size64 q = 0; q < C && s * C + q < a.rows; ++q)
        for (size64 k = 0; k < a.slice_width(s); ++k) {
          const size64 at = a.slice_ptr[s] + k * C + q;
          if (a.val[at] != T(0)) emit(mapped_row(a.row_map, s * C + q), a.col[at], a.val[at]);
        }
  });
}

template <Scalar T>
Hyb<T> to_hyb(const Csr<T>& a, HybOptions opt) {
  size64 width = opt.ell_width;
  if (width < 0) {
    // Bytes as a function of the ELL width K: rows*K ELL slots (value + index)
    // plus the entries beyond K in COO (value + 2 indices). Ties go to the
    // larger K (ELL is the faster part on a GPU).
    size64 longest = 0;
    for (size64 i = 0; i < a.rows; ++i) longest = std::max(longest, detail::row_length(a, i));
    std::vector<size64> rows_longer(static_cast<std::size_t>(longest) + 1,
                                    0);  // rows with length > K
    for (size64 i = 0; i < a.rows; ++i)
      for (size64 k = 0; k < detail::row_length(a, i); ++k) ++rows_longer[k];
    const double slot = sizeof(T) + sizeof(index_t), entry = sizeof(T) + 2.0 * sizeof(index_t);
    double best = -1, overflow = static_cast<double>(a.nnz());
    for (size64 k = 0; k <= longest; ++k) {
      const double bytes = static_cast<double>(a.rows) * k * slot + overflow * entry;
      if (best < 0 || bytes <= best) {
        best = bytes;
        width = k;
      }
      if (k < longest) overflow -= static_cast<double>(rows_longer[k]);
    }
  }
  Hyb<T> out;
  out.ell = detail::build_ell(a, std::nullopt, width, 1);
  out.coo.rows = a.rows;
  out.coo.cols = a.cols;
  for (size64 i = 0; i < a.rows; ++i)
    for (index_t p = a.row_ptr[i] + static_cast<index_t>(std::min(width, detail::row_length(a, i)));
         p < a.row_ptr[i + 1]; ++p) {
      out.coo.row.push_back(static_cast<index_t>(i));
      out.coo.col.push_back(a.col[p]);
      out.coo.val.push_back(a.val[p]);
    }
  return out;
}

template <Scalar T>
Csr<T> to_csr(const Hyb<T>& a) {
  return detail::csr_from_entries<T>(a.rows(), a.cols(), [&](auto emit) {
    emit_nonzero_slots(a.ell, emit);
    for (size64 k = 0; k < a.coo.nnz(); ++k)
      if (a.coo.val[k] != T(0)) emit(a.coo.row[k], a.coo.col[k], a.coo.val[k]);
  });
}

#define TESSERA_INSTANTIATE(T)                                                                  \
  template Ell<T> detail::build_ell(const Csr<T>&, std::optional<std::vector<index_t>>, size64, \
                                    size64);                                                    \
  template Ell<T> to_ell(const Csr<T>&, EllOptions);                                            \
  template Csr<T> to_csr(const Ell<T>&);                                                        \
  template Sell<T> to_sell(const Csr<T>&, SellOptions);                                         \
  template Csr<T> to_csr(const Sell<T>&);                                                       \
  template Hyb<T> to_hyb(const Csr<T>&, HybOptions);                                            \
  template Csr<T> to_csr(const Hyb<T>&);
TESSERA_SPARSE_FOR_EACH_SCALAR(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera::sparse
