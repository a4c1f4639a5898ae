// Matrix Market banner, size line and the names of the banner words.
#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <span>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/enum_names.hpp"
#include "core/error.hpp"
#include "io/file_bytes.hpp"
#include "sparse/matrix_market_detail.hpp"

namespace tessera::sparse {

namespace {
constexpr std::array<std::string_view, 2> kObjects{"matrix", "vector"};
constexpr std::array<std::string_view, 2> kFormats{"coordinate", "array"};
constexpr std::array<std::string_view, 5> kFields{"real", "double", "integer", "complex",
                                                  "pattern"};
constexpr std::array<std::string_view, 4> kSymmetries{"general", "symmetric", "skew-symmetric",
                                                      "hermitian"};

// Matrix Market words may be written in any case.
template <class E, std::size_t N>
std::optional<E> lookup(const std::array<std::string_view, N>& names, std::string_view s) {
  return enum_lookup<E>(s, names, /*ignore_case=*/true);
}

template <std::size_t N>
std::string alternatives(const std::array<std::string_view, N>& names) {
  return fmt::format("{}", fmt::join(names, ", "));
}
}  // namespace

std::string_view to_string(MmObject v) { return kObjects[static_cast<int>(v)]; }
std::string_view to_string(MmFormat v) { return kFormats[static_cast<int>(v)]; }
std::string_view to_string(MmField v) { return kFields[static_cast<int>(v)]; }
std::string_view to_string(MmSymmetry v) { return kSymmetries[static_cast<int>(v)]; }
std::optional<MmFormat> parse_mm_format(std::string_view s) {
  return lookup<MmFormat>(kFormats, s);
}
std::optional<MmField> parse_mm_field(std::string_view s) { return lookup<MmField>(kFields, s); }
std::optional<MmSymmetry> parse_mm_symmetry(std::string_view s) {
  return lookup<MmSymmetry>(kSymmetries, s);
}

namespace mm {

std::string quote(std::string_view token) {
  if (token.size() > 40) return fmt::format("'{}...'", token.substr(0, 40));
  return fmt::format("'{}'", token);
}

void fail(std::string_view source, size64 line, std::string_view reason) {
  throw Error(fmt::format("{}:{}: {}", source, line, reason));
}

size64 array_entries(MmSymmetry s, size64 rows, size64 cols, std::string_view source, size64 line) {
  size64 n = 0;
  bool overflow = false;
  if (s == MmSymmetry::general)
    overflow = __builtin_mul_overflow(rows, cols, &n);
  else if (s == MmSymmetry::skew_symmetric)
    overflow = __builtin_mul_overflow(rows, rows > 0 ? rows - 1 : 0, &n), n /= 2;
  else
    overflow = __builtin_mul_overflow(rows, rows + 1, &n), n /= 2;
  if (overflow || n > kMaxIndex)
    fail(source, line,
         fmt::format("a {} x {} array has too many entries (at most {} are supported)", rows, cols,
                     kMaxIndex));
  return n;
}

Preamble parse_preamble(std::string_view text, std::string_view source) {
  Preamble out;
  MmHeader& h = out.header;
  const char* p = text.data();
  const char* end = p + text.size();
  if (text.empty()) fail(source, 1, "empty file: expected the banner '%%MatrixMarket matrix ...'");
  {
    Line banner = next_line(p, end);
    const char* q = banner.b;
    std::string_view t = next_token(q, banner.e);
    if (t != "%%MatrixMarket")
      fail(source, 1,
           fmt::format(
               "bad banner {}: a Matrix Market file starts with '%%MatrixMarket object format "
               "field symmetry'",
               quote(banner.view())));
    std::array<std::string_view, 4> words{};
    for (auto& w : words) {
      w = next_token(q, banner.e);
      if (w.empty())
        fail(source, 1,
             "incomplete banner: expected '%%MatrixMarket object format field symmetry'");
    }
    if (auto extra = next_token(q, banner.e); !extra.empty())
      fail(source, 1,
           fmt::format("unexpected text {} after the banner's four words", quote(extra)));
    auto object = lookup<MmObject>(kObjects, words[0]);
    auto format = parse_mm_format(words[1]);
    auto field = parse_mm_field(words[2]);
    auto symmetry = parse_mm_symmetry(words[3]);
    if (!object)
      fail(source, 1,
           fmt::format("unknown object {} (expected {})", quote(words[0]), alternatives(kObjects)));
    if (!format)
      fail(source, 1,
           fmt::format("unknown format {} (expected {})", quote(words[1]), alternatives(kFormats)));
    if (!field)
      fail(source, 1,
           fmt::format("unknown field {} (expected {})", quote(words[2]), alternatives(kFields)));
    if (!symmetry)
      fail(source, 1,
           fmt::format("unknown symmetry {} (expected {})", quote(words[3]),
                       alternatives(kSymmetries)));
    h.object = *object;
    h.format = *format;
    h.field = *field;
    h.symmetry = *symmetry;
    if (h.field == MmField::pattern && h.format == MmFormat::array)
      fail(source, 1, "field 'pattern' is only allowed with format 'coordinate'");
    if (h.symmetry == MmSymmetry::hermitian && h.field != MmField::complex)
      fail(source, 1, "symmetry 'hermitian' requires field 'complex'");
    if (h.symmetry == MmSymmetry::skew_symmetric && h.field == MmField::pattern)
      fail(source, 1, "symmetry 'skew-symmetric' cannot be used with field 'pattern'");
    if (h.object == MmObject::vector && h.symmetry != MmSymmetry::general)
      fail(source, 1, "a vector must have symmetry 'general'");
  }
  size64 line = 1;
  Line size_line{};
  for (;;) {
    if (p >= end) fail(source, line, "file ends before the size line");
    size_line = next_line(p, end);
    ++line;
    if (is_data(size_line)) break;
    const char* q = size_line.b;
    while (q < size_line.e && is_space(*q)) ++q;
    if (q < size_line.e) h.comments.emplace_back(q + 1, size_line.e);  // without the '%'
  }
  out.size_line = line;
  // Size line: rows cols [entries] (matrix), n [entries] (vector).
  const bool coord = h.format == MmFormat::coordinate;
  const int want = (h.object == MmObject::matrix ? 2 : 1) + (coord ? 1 : 0);
  const char* names[3] = {};
  if (h.object == MmObject::matrix) {
    names[0] = "rows";
    names[1] = "columns";
    names[2] = "entries";
  } else {
    names[0] = "length";
    names[1] = "entries";
  }
  size64 v[3] = {0, 0, 0};
  const char* q = size_line.b;
  for (int k = 0; k < want; ++k) {
    std::string_view t = next_token(q, size_line.e);
    if (t.empty())
      fail(source, line,
           fmt::format("truncated size line: {} numbers, expected {} ({})", k, want,
                       fmt::join(std::span(names, static_cast<std::size_t>(want)), " ")));
    auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), v[k]);
    if (ec == std::errc::result_out_of_range)
      fail(source, line, fmt::format("{} {} is too large", names[k], quote(t)));
    if (ec != std::errc() || ptr != t.data() + t.size())
      fail(source, line,
           fmt::format("invalid {} {} (expected a non-negative integer)", names[k], quote(t)));
    if (v[k] < 0) fail(source, line, fmt::format("negative {} {}", names[k], quote(t)));
  }
  if (auto extra = next_token(q, size_line.e); !extra.empty())
    fail(source, line,
         fmt::format("unexpected text {} after the size line's {} numbers", quote(extra), want));
  if (h.object == MmObject::matrix) {
    h.rows = v[0];
    h.cols = v[1];
    h.entries = coord ? v[2] : 0;
  } else {
    h.rows = v[0];
    h.cols = 1;
    h.entries = coord ? v[1] : 0;
  }
  for (auto [n, what] : {std::pair{h.rows, "rows"}, std::pair{h.cols, "columns"}})
    if (n > kMaxIndex)
      fail(source, line,
           fmt::format("{} {} exceed the 32-bit index range (at most {})", n, what, kMaxIndex));
  if (h.symmetry != MmSymmetry::general && h.rows != h.cols)
    fail(source, line,
         fmt::format("a {} matrix must be square, this one is {} x {}", to_string(h.symmetry),
                     h.rows, h.cols));
  if (coord && h.entries > kMaxIndex)
    fail(
        source, line,
        fmt::format("{} entries exceed the 32-bit index range (at most {})", h.entries, kMaxIndex));
  if (!coord) h.entries = array_entries(h.symmetry, h.rows, h.cols, source, line);
  out.data = p;
  out.data_line = line + 1;
  return out;
}

}  // namespace mm

MmHeader read_matrix_market_header(const std::filesystem::path& path) {
  const std::string text = io::read_file_bytes(path);
  return mm::parse_preamble(text, path.string()).header;
}

}  // namespace tessera::sparse
