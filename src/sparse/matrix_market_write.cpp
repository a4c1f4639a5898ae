// Matrix Market writer: checks that the matrix fits the requested field and
// symmetry, formats the entries in parallel chunks with std::to_chars (the
// shortest text that reads back to the same value), then writes atomically.
#include <omp.h>

#include <algorithm>
#include <charconv>
#include <cmath>

#include <fmt/format.h>

#include "core/error.hpp"
#include "sparse/convert.hpp"
#include "io/file_bytes.hpp"
#include "sparse/matrix_market.hpp"

namespace tessera::sparse {

namespace {

template <class N>
void append_number(std::string& s, N v) {
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  s.append(buf, r.ptr);
}

template <Scalar T>
std::string show(T v) {
  if constexpr (is_complex_v<T>)
    return fmt::format("({}, {})", v.real(), v.imag());
  else
    return fmt::format("{}", v);
}

/// Position of A(i, j) in a.col/a.val, -1 if not stored.
template <Scalar T>
size64 find(const Csr<T>& a, size64 i, size64 j) {
  auto b = a.col.begin() + a.row_ptr[i], e = a.col.begin() + a.row_ptr[i + 1];
  auto it = std::lower_bound(b, e, static_cast<index_t>(j));
  return it != e && *it == j ? it - a.col.begin() : -1;
}

template <Scalar T>
void check_field(const Csr<T>& a, MmField field) {
  for (size64 i = 0; i < a.rows; ++i)
    for (index_t p = a.row_ptr[i]; p < a.row_ptr[i + 1]; ++p) {
      const T v = a.val[p];
      auto where = [&] { return fmt::format("entry ({}, {}) = {}", i + 1, a.col[p] + 1, show(v)); };
      if (field == MmField::pattern) continue;
      if (!std::isfinite(std::real(v)) || !std::isfinite(std::imag(v)))
        throw Error(fmt::format("cannot write {}: Matrix Market has no NaN/Inf", where()));
      if (field != MmField::complex && std::imag(v) != 0)
        throw Error(
            fmt::format("cannot write field '{}': {} is complex", to_string(field), where()));
      const double re = static_cast<double>(std::real(v));
      if (field == MmField::integer && (std::trunc(re) != re || std::abs(re) >= 9.2e18))
        throw Error(
            fmt::format("cannot write field 'integer': {} is not a 64-bit integer", where()));
    }
}

template <Scalar T>
T mirrored(T v, MmSymmetry s) {
  if (s == MmSymmetry::skew_symmetric) return -v;
  if constexpr (is_complex_v<T>)
    if (s == MmSymmetry::hermitian) return std::conj(v);
  return v;
}

/// Values must mirror (for a pattern file: the structure must).
template <Scalar T>
void check_symmetry(const Csr<T>& a, MmSymmetry s, MmField field) {
  if (s == MmSymmetry::general) return;
  const auto name = to_string(s);
  if (a.rows != a.cols)
    throw Error(
        fmt::format("cannot write a {} x {} matrix as {}: it is not square", a.rows, a.cols, name));
  if (s == MmSymmetry::hermitian && !is_complex_v<T>)
    throw Error("cannot write a real matrix as hermitian (use symmetric)");
  for (size64 i = 0; i < a.rows; ++i)
    for (index_t p = a.row_ptr[i]; p < a.row_ptr[i + 1]; ++p) {
      const size64 j = a.col[p];
      const T v = a.val[p];
      const size64 at = i == j ? p : find(a, j, i);
      const T w = at >= 0 ? a.val[at] : T(0);
      bool ok;
      if (field == MmField::pattern)
        ok = at >= 0;
      else if (i != j)
        ok = w == mirrored(v, s);
      else
        ok = s == MmSymmetry::skew_symmetric ? v == T(0)
                                             : s != MmSymmetry::hermitian || std::imag(v) == 0;
      if (!ok)
        throw Error(fmt::format("cannot write as {}: A({}, {}) = {} but A({}, {}) = {}", name,
                                i + 1, j + 1, show(v), j + 1, i + 1, show(w)));
    }
}

/// Whether a symmetry's file lists entry (i, j).
bool listed(MmSymmetry s, size64 i, size64 j) {
  return s == MmSymmetry::general || (s == MmSymmetry::skew_symmetric ? i > j : i >= j);
}

/// The value's field(s), preceded by a space unless it starts the line.
template <Scalar T>
void append_value(std::string& s, T v, MmField field, bool first) {
  if (field == MmField::pattern) return;
  if (!first) s += ' ';
  if (field == MmField::integer) return append_number(s, static_cast<std::int64_t>(std::real(v)));
  append_number(s, std::real(v));
  if (field == MmField::complex) {
    s += ' ';
    append_number(s, std::imag(v));
  }
}

/// Formats rows [0, n) in parallel chunks; line(s, i) appends row i's lines.
template <class F>
std::string format_rows(size64 n, F&& line) {
  const size64 chunks = std::max<size64>(1, std::min<size64>(n / 4096, 8 * omp_get_max_threads()));
  std::vector<std::string> parts(static_cast<std::size_t>(chunks));
#pragma omp parallel for schedule(dynamic, 1)
  for (size64 c = 0; c < chunks; ++c)
    for (size64 i = n * c / chunks; i < n * (c + 1) / chunks; ++i) line(parts[c], i);
  std::size_t total = 0;
  for (const auto& p : parts) total += p.size();
  std::string out;
  out.reserve(total);
  for (const auto& p : parts) out += p;
  return out;
}

}  // namespace

template <Scalar T>
std::string format_matrix_market(const Csr<T>& a, const MmWriteOptions& opt) {
  const MmField field = opt.field.value_or(is_complex_v<T> ? MmField::complex : MmField::real);
  const MmSymmetry sym = opt.symmetry;
  if (field == MmField::pattern && opt.format == MmFormat::array)
    throw Error("cannot write field 'pattern' in format 'array'");
  if (field == MmField::pattern && sym == MmSymmetry::skew_symmetric)
    throw Error("cannot write field 'pattern' as skew-symmetric");
  if (sym == MmSymmetry::hermitian && field != MmField::complex)
    throw Error("symmetry 'hermitian' requires field 'complex'");
  check_field(a, field);
  check_symmetry(a, sym, field);
  std::string out = fmt::format("%%MatrixMarket matrix {} {} {}\n", to_string(opt.format),
                                to_string(field), to_string(sym));
  for (const auto& c : opt.comments) {  // one '%' line per line of each comment
    std::string_view rest = c;
    for (;;) {
      const auto nl = rest.find('\n');
      out += '%';
      out.append(rest.substr(0, nl));
      out += '\n';
      if (nl == std::string_view::npos) break;
      rest.remove_prefix(nl + 1);
    }
  }
  if (opt.format == MmFormat::coordinate) {
    size64 count = 0;
    for (size64 i = 0; i < a.rows; ++i)
      for (index_t p = a.row_ptr[i]; p < a.row_ptr[i + 1]; ++p) count += listed(sym, i, a.col[p]);
    out += fmt::format("{} {} {}\n", a.rows, a.cols, count);
    out += format_rows(a.rows, [&](std::string& s, size64 i) {
      for (index_t p = a.row_ptr[i]; p < a.row_ptr[i + 1]; ++p) {
        if (!listed(sym, i, a.col[p])) continue;
        append_number(s, i + 1);
        s += ' ';
        append_number(s, a.col[p] + 1);
        append_value(s, a.val[p], field, false);
        s += '\n';
      }
    });
  } else {
    // Column-major: walk the transpose's rows, filling absent entries with 0.
    Coo<T> t = to_coo(a);
    std::swap(t.row, t.col);
    std::swap(t.rows, t.cols);
    const Csr<T> at = to_csr(t);
    out += fmt::format("{} {}\n", a.rows, a.cols);
    out += format_rows(a.cols, [&](std::string& s, size64 j) {
      index_t p = at.row_ptr[j];
      for (size64 i = 0; i < a.rows; ++i) {
        while (p < at.row_ptr[j + 1] && at.col[p] < i) ++p;
        if (!listed(sym, i, j)) continue;
        const T v = p < at.row_ptr[j + 1] && at.col[p] == i ? at.val[p] : T(0);
        append_value(s, v, field, true);
        s += '\n';
      }
    });
  }
  return out;
}

template <Scalar T>
void write_matrix_market(const std::filesystem::path& path, const Csr<T>& a,
                         const MmWriteOptions& opt) {
  io::write_file_maybe_gz(path, format_matrix_market(a, opt));
}

template <Scalar T>
void write_matrix_market(const std::filesystem::path& path, const Coo<T>& a,
                         const MmWriteOptions& opt) {
  write_matrix_market(path, to_csr(a), opt);
}

template <Scalar T>
void write_matrix_market_vector(const std::filesystem::path& path, std::span<const T> v,
                                const MmWriteOptions& opt) {
  Csr<T> a;
  a.rows = to_index(static_cast<size64>(v.size()), "vector length");
  a.cols = 1;
  a.val.assign(v.begin(), v.end());
  a.col.assign(v.size(), 0);
  a.row_ptr.resize(v.size() + 1);
  for (std::size_t i = 0; i <= v.size(); ++i) a.row_ptr[i] = static_cast<index_t>(i);
  MmWriteOptions o = opt;
  o.format = MmFormat::array;
  o.symmetry = MmSymmetry::general;
  write_matrix_market(path, a, o);
}

#define TESSERA_INSTANTIATE(T)                                                               \
  template std::string format_matrix_market(const Csr<T>&, const MmWriteOptions&);           \
  template void write_matrix_market(const std::filesystem::path&, const Csr<T>&,             \
                                    const MmWriteOptions&);                                  \
  template void write_matrix_market(const std::filesystem::path&, const Coo<T>&,             \
                                    const MmWriteOptions&);                                  \
  template void write_matrix_market_vector(const std::filesystem::path&, std::span<const T>, \
                                           const MmWriteOptions&);
TESSERA_SPARSE_FOR_EACH_SCALAR(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera::sparse
