// Matrix Market reader. The text is read whole, the preamble sequentially, the
// entries in parallel chunks: pass 1 counts lines and entries per chunk (so
// every chunk knows its first line number and first entry index and the count
// is checked before anything is allocated), pass 2 parses each chunk straight
// into the result arrays. Each chunk stops at its first error and the earliest
// one is thrown, so messages name the same line as a sequential parse would.
#include <omp.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>

#include <fmt/format.h>

#include "core/error.hpp"
#include "io/file_bytes.hpp"
#include "sparse/host_memory.hpp"
#include "sparse/matrix_market_detail.hpp"

namespace tessera::sparse {

namespace mm {
namespace {

/// Leading '+' is allowed (from_chars does not accept it).
std::string_view strip_plus(std::string_view t) {
  return t.size() > 1 && t[0] == '+' && t[1] != '-' && t[1] != '+' ? t.substr(1) : t;
}

/// Parses a whole token as an integer; false with a reason otherwise.
bool parse_int(std::string_view t, size64& out, const char* what, std::string& err) {
  const std::string_view s = strip_plus(t);
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  if (ec == std::errc::result_out_of_range) {
    err = fmt::format("{} {} does not fit in 64 bits", what, quote(t));
    return false;
  }
  if (ec != std::errc() || ptr != s.data() + s.size()) {
    err = fmt::format("invalid {} {} (expected an integer)", what, quote(t));
    return false;
  }
  return true;
}

/// Parses a whole token as a real of type R. Overflow is an error, underflow
/// gives what strtod gives (0 or a subnormal), NaN/Inf only if allowed.
template <class R>
bool parse_real(std::string_view t, R& out, bool allow_non_finite, std::string& err) {
  const std::string_view s = strip_plus(t);
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), out, std::chars_format::general);
  if (ec == std::errc::result_out_of_range && ptr == s.data() + s.size()) {
    const std::string copy(s);  // from_chars leaves `out` unset: ask strtod what it is
    const double d = std::strtod(copy.c_str(), nullptr);
    if (std::isinf(d) || std::abs(d) > static_cast<double>(std::numeric_limits<R>::max())) {
      err = fmt::format("number {} overflows {}", quote(t), sizeof(R) == 4 ? "float" : "double");
      return false;
    }
    out = static_cast<R>(d);  // underflow
    return true;
  }
  if (ec != std::errc() || ptr != s.data() + s.size()) {
    err = fmt::format("invalid number {}", quote(t));
    return false;
  }
  if (!allow_non_finite && !std::isfinite(out)) {
    err = fmt::format("non-finite value {} (Matrix Market defines no NaN/Inf; refused)", quote(t));
    return false;
  }
  return true;
}

/// Position of array entry e: column-major over the entries the symmetry lists.
struct ArrayWalker {
  MmSymmetry sym;
  size64 rows, cols, i = 0, j = 0;
  size64 first_row(size64 col) const {
    return sym == MmSymmetry::general ? 0 : sym == MmSymmetry::skew_symmetric ? col + 1 : col;
  }
  size64 column_start(size64 col) const {  // entries before column col
    if (sym == MmSymmetry::general) return col * rows;
    const size64 skip = sym == MmSymmetry::skew_symmetric ? 1 : 0;
    return col * (rows - skip) - col * (col - 1) / 2;
  }
  void seek(size64 e) {
    size64 lo = 0, hi = cols;  // last column whose start is <= e
    while (hi - lo > 1) {
      const size64 mid = (lo + hi) / 2;
      (column_start(mid) <= e ? lo : hi) = mid;
    }
    j = lo;
    i = first_row(j) + (e - column_start(j));
  }
  void advance() {
    if (++i >= rows) {
      ++j;
      i = first_row(j);
      while (i >= rows && j < cols) i = first_row(++j);
    }
  }
};

struct Chunk {
  const char* b;
  const char* e;
  size64 first_line = 0, lines = 0, first_entry = 0, entries = 0;
  size64 error_line = -1;
  std::string error;
};

template <Scalar T>
class EntryParser {
 public:
  EntryParser(const MmHeader& h, const MmReadOptions& opt) : h_(h), opt_(opt) {
    indices_ = h.format == MmFormat::array ? 0 : h.object == MmObject::matrix ? 2 : 1;
    values_ = h.field == MmField::pattern ? 0 : h.field == MmField::complex ? 2 : 1;
  }

  /// Parses one data line; (i, j) are preset by the caller for array files.
  bool parse(Line l, size64& i, size64& j, T& v, std::string& err) const {
    const char* p = l.b;
    std::string_view tok[4];
    const int want = indices_ + values_;
    for (int k = 0; k < want; ++k) {
      tok[k] = next_token(p, l.e);
      if (tok[k].empty()) {
        err = fmt::format("truncated line: {} of {} fields ({})", k, want, fields());
        return false;
      }
    }
    if (auto extra = next_token(p, l.e); !extra.empty()) {
      err =
          fmt::format("unexpected text {} after the {} fields ({})", quote(extra), want, fields());
      return false;
    }
    if (indices_ > 0) {
      if (!index(tok[0], h_.rows, "row index", i, err)) return false;
      if (indices_ == 2 && !index(tok[1], h_.cols, "column index", j, err)) return false;
      if (indices_ == 1) j = 0;
    }
    real_t<T> re = 1, im = 0;
    if (h_.field == MmField::integer) {
      size64 n;
      if (!parse_int(tok[indices_], n, "integer value", err)) return false;
      re = static_cast<real_t<T>>(n);
    } else if (values_ >= 1) {
      if (!parse_real(tok[indices_], re, opt_.allow_non_finite, err)) return false;
      if (values_ == 2 && !parse_real(tok[indices_ + 1], im, opt_.allow_non_finite, err))
        return false;
    }
    if constexpr (is_complex_v<T>)
      v = T(re, im);
    else
      v = re;
    return check_triangle(i, j, re, im, err);
  }

 private:
  const char* fields() const {
    static const char* names[3][3] = {
        {"value", "re im", "?"}, {"i value", "i re im", "i"}, {"i j value", "i j re im", "i j"}};
    return names[indices_][values_ == 0 ? 2 : values_ - 1];
  }
  bool index(std::string_view t, size64 n, const char* what, size64& out, std::string& err) const {
    if (!parse_int(t, out, what, err)) return false;
    if (out < 1 || out > n) {
      err = fmt::format("{} {} out of range 1..{} (indices are 1-based)", what, out, n);
      return false;
    }
    --out;
    return true;
  }
  bool check_triangle(size64 i, size64 j, real_t<T> re, real_t<T> im, std::string& err) const {
    if (h_.symmetry == MmSymmetry::general) return true;
    if (i < j) {
      err = fmt::format(
          "entry ({}, {}) lies above the diagonal; a {} file lists only the lower triangle", i + 1,
          j + 1, to_string(h_.symmetry));
      return false;
    }
    if (i == j && h_.symmetry == MmSymmetry::skew_symmetric && (re != 0 || im != 0)) {
      err = fmt::format("diagonal entry ({0}, {0}) of a skew-symmetric matrix must be zero", i + 1);
      return false;
    }
    if (i == j && h_.symmetry == MmSymmetry::hermitian && im != 0) {
      err = fmt::format("diagonal entry ({0}, {0}) of a hermitian matrix must be real", i + 1);
      return false;
    }
    return true;
  }
  const MmHeader& h_;
  const MmReadOptions& opt_;
  int indices_, values_;
};

/// Splits [b, e) into about `n` chunks that start at line starts.
std::vector<Chunk> split(const char* b, const char* e, int n) {
  std::vector<Chunk> chunks;
  const char* p = b;
  for (int k = 0; k < n && p < e; ++k) {
    const char* q = k == n - 1 ? e : std::max(p, b + (e - b) * (k + 1) / n);
    if (q < e) {
      const void* nl = std::memchr(q, '\n', static_cast<std::size_t>(e - q));
      q = nl ? static_cast<const char*>(nl) + 1 : e;
    }
    chunks.push_back(Chunk{p, q, 0, 0, 0, 0, -1, {}});
    p = q;
  }
  return chunks;
}

}  // namespace
}  // namespace mm

template <Scalar T>
Coo<T> parse_matrix_market(std::string_view text, std::string_view source, MmHeader* header,
                           MmReadOptions opt) {
  using namespace mm;
  Preamble pre = parse_preamble(text, source);
  const MmHeader& h = pre.header;
  if (!is_complex_v<T> && h.field == MmField::complex)
    fail(source, 1, "the file holds complex values, which cannot be read into a real matrix");
  const char* end = text.data() + text.size();
  const int threads = omp_get_max_threads();
  std::vector<Chunk> chunks = split(pre.data, end, end - pre.data < (4 << 20) ? 1 : 4 * threads);
  const auto nchunks = static_cast<std::ptrdiff_t>(chunks.size());
  // Pass 1: lines and entries per chunk.
#pragma omp parallel for schedule(dynamic, 1)
  for (std::ptrdiff_t k = 0; k < nchunks; ++k) {
    Chunk& c = chunks[k];
    for (const char* p = c.b; p < c.e;) {
      Line l = next_line(p, c.e);
      ++c.lines;
      c.entries += is_data(l);
    }
  }
  size64 line = pre.data_line, entry = 0;
  for (Chunk& c : chunks) {
    c.first_line = line;
    c.first_entry = entry;
    line += c.lines;
    entry += c.entries;
  }
  Coo<T> out;
  out.rows = h.rows;
  out.cols = h.cols;
  const EntryParser<T> parser(h, opt);
  // Parses chunk c's entries on lines before `stop`; stores them if `store`.
  // A chunk stops at its first bad line (c.error_line, c.error).
  auto parse_chunk = [&](Chunk& c, bool store, size64 stop) {
    ArrayWalker walk{h.symmetry, h.rows, h.cols};
    if (h.format == MmFormat::array && c.entries > 0) walk.seek(c.first_entry);
    size64 ln = c.first_line, e = c.first_entry;
    T scratch{};
    for (const char* p = c.b; p < c.e && ln < stop; ++ln) {
      Line l = next_line(p, c.e);
      if (!is_data(l)) continue;
      size64 i = walk.i, j = walk.j;
      if (!parser.parse(l, i, j, store ? out.val[e] : scratch, c.error)) {
        c.error_line = ln;
        return;
      }
      if (store) {
        out.row[e] = static_cast<index_t>(i);
        out.col[e] = static_cast<index_t>(j);
      }
      ++e;
      walk.advance();
    }
  };
  // A wrong count is reported at the last line (too few) or the first surplus
  // line (too many), unless a bad line comes earlier, as a sequential parser
  // would; nothing is allocated for the entries in either case.
  if (entry != h.entries) {
    size64 stop = line;  // one past the last line
    std::string reason = fmt::format("file ends after {} of the {} entries declared on line {}",
                                     entry, h.entries, pre.size_line);
    for (const Chunk& c : chunks) {
      if (entry < h.entries || c.first_entry + c.entries <= h.entries) continue;
      size64 ln = c.first_line, e = c.first_entry;
      for (const char* p = c.b;; ++ln)
        if (is_data(next_line(p, c.e)) && e++ == h.entries) break;
      stop = ln;
      reason =
          fmt::format("more entries than the {} declared on line {}", h.entries, pre.size_line);
      break;
    }
    for (Chunk& c : chunks) {
      if (c.first_line >= stop) break;
      parse_chunk(c, false, stop);
      if (c.error_line >= 0) fail(source, c.error_line, c.error);
    }
    fail(source, entry < h.entries ? line - 1 : stop,
         reason);  // line - 1: the size line if nothing follows
  }
  // Pass 2: parse into place.
  out.row.resize(static_cast<std::size_t>(h.entries));
  out.col.resize(out.row.size());
  out.val.resize(out.row.size());
#pragma omp parallel for schedule(dynamic, 1)
  for (std::ptrdiff_t k = 0; k < nchunks; ++k) parse_chunk(chunks[k], true, line);
  for (const Chunk& c : chunks)
    if (c.error_line >= 0) fail(source, c.error_line, c.error);
  // Expansion of the other triangle.
  if (h.symmetry != MmSymmetry::general) {
    const size64 n = out.nnz();
    size64 off_diagonal = 0;
    for (size64 k = 0; k < n; ++k) off_diagonal += out.row[k] != out.col[k];
    out.row.reserve(static_cast<std::size_t>(n + off_diagonal));
    out.col.reserve(out.row.capacity());
    out.val.reserve(out.row.capacity());
    for (size64 k = 0; k < n; ++k) {
      if (out.row[k] == out.col[k]) continue;
      T v = out.val[k];
      if (h.symmetry == MmSymmetry::skew_symmetric) v = -v;
      if constexpr (is_complex_v<T>)
        if (h.symmetry == MmSymmetry::hermitian) v = std::conj(v);
      out.row.push_back(out.col[k]);
      out.col.push_back(out.row[k]);
      out.val.push_back(v);
    }
  }
  if (header) *header = pre.header;
  return out;
}

template <Scalar T>
Coo<T> read_matrix_market(const std::filesystem::path& path, MmHeader* header, MmReadOptions opt) {
  const std::string text = io::read_file_bytes(path);
  return parse_matrix_market<T>(text, path.string(), header, opt);
}

template <Scalar T>
std::vector<T> read_matrix_market_vector(const std::filesystem::path& path, MmHeader* header,
                                         MmReadOptions opt) {
  MmHeader h;
  Coo<T> a = read_matrix_market<T>(path, &h, opt);
  if (a.rows != 1 && a.cols != 1)
    throw Error(
        fmt::format("{}: holds a {} x {} matrix, not a vector", path.string(), a.rows, a.cols));
  const size64 n = a.cols == 1 ? a.rows : a.cols;
  require_host_memory(
      static_cast<std::uint64_t>(n) * sizeof(T),
      fmt::format("the declared {}-entry dense vector ({} entries in the file)", n, a.nnz()),
      path.string(), "check the size line of the file");
  std::vector<T> v(static_cast<std::size_t>(a.cols == 1 ? a.rows : a.cols), T(0));
  for (size64 k = 0; k < a.nnz(); ++k) v[a.cols == 1 ? a.row[k] : a.col[k]] += a.val[k];
  if (header) *header = h;
  return v;
}

MmMatrix read_matrix_market_any(const std::filesystem::path& path, MmReadOptions opt) {
  const std::string text = io::read_file_bytes(path);
  MmMatrix m;
  if (mm::parse_preamble(text, path.string()).header.field == MmField::complex)
    m.coo = parse_matrix_market<std::complex<double>>(text, path.string(), &m.header, opt);
  else
    m.coo = parse_matrix_market<double>(text, path.string(), &m.header, opt);
  return m;
}

#define TESSERA_INSTANTIATE(T)                                                                \
  template Coo<T> parse_matrix_market(std::string_view, std::string_view, MmHeader*,          \
                                      MmReadOptions);                                         \
  template Coo<T> read_matrix_market(const std::filesystem::path&, MmHeader*, MmReadOptions); \
  template std::vector<T> read_matrix_market_vector(const std::filesystem::path&, MmHeader*,  \
                                                    MmReadOptions);
TESSERA_SPARSE_FOR_EACH_SCALAR(TESSERA_INSTANTIATE)
#undef TESSERA_INSTANTIATE

}  // namespace tessera::sparse
