#include "io/stl.hpp"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <initializer_list>
#include <limits>

#include <fmt/format.h>

#include "core/error.hpp"
#include "io/file_bytes.hpp"

namespace tessera::io {

namespace {

constexpr std::uint64_t kHeaderBytes = 84;    // 80-byte header + uint32 count
constexpr std::uint64_t kTriangleBytes = 50;  // normal, 3 vertices, attribute word

bool is_space(char ch) {
  return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\v' || ch == '\f';
}

char lower(char ch) { return ch >= 'A' && ch <= 'Z' ? static_cast<char>(ch - 'A' + 'a') : ch; }

/// Keyword comparison without regard to case (`word` is lower case).
bool is_word(std::string_view tok, std::string_view word) {
  if (tok.size() != word.size()) return false;
  for (std::size_t i = 0; i < tok.size(); ++i)
    if (lower(tok[i]) != word[i]) return false;
  return true;
}

/// A token as shown in a message: at most 40 characters, bytes outside
/// printable ASCII as \xNN.
std::string shown(std::string_view tok) {
  std::string out;
  const std::size_t n = std::min<std::size_t>(tok.size(), 40);
  for (std::size_t i = 0; i < n; ++i) {
    const auto ch = static_cast<unsigned char>(tok[i]);
    if (ch >= 0x20 && ch < 0x7f)
      out += static_cast<char>(ch);
    else
      out += fmt::format("\\x{:02X}", ch);
  }
  if (tok.size() > n) out += "...";
  return out;
}

/// Where an ASCII file starts with the keyword "solid" (after an optional
/// UTF-8 byte order mark and white space).
bool starts_with_solid(std::string_view s) {
  std::size_t p = s.starts_with("\xEF\xBB\xBF") ? 3 : 0;
  while (p < s.size() && is_space(s[p])) ++p;
  return p + 5 <= s.size() && is_word(s.substr(p, 5), "solid") &&
         (p + 5 == s.size() || is_space(s[p + 5]));
}

/// Binary data: a NUL or a control character other than white space (floats
/// have them; ASCII STL has none).
bool looks_binary(std::string_view s) {
  return std::any_of(s.begin(), s.end(), [](char c) {
    const auto ch = static_cast<unsigned char>(c);
    return ch == 0x7f || (ch < 0x20 && !is_space(c));
  });
}

std::uint32_t le32(const char* p) {
  std::uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(p[i]);
  return v;
}

float le_float(const char* p) { return std::bit_cast<float>(le32(p)); }

/// Why the data is not a binary STL of the size its count announces, or empty
/// when it is one (up to 49 bytes of padding after the triangles allowed).
std::string binary_size_problem(std::string_view s) {
  if (s.size() < kHeaderBytes)
    return fmt::format("{} bytes, fewer than the 84 of a binary STL's header and triangle count",
                       s.size());
  const std::uint64_t n = le32(s.data() + 80);
  const std::uint64_t need = kHeaderBytes + kTriangleBytes * n;
  if (s.size() < need)
    return fmt::format(
        "truncated binary STL: the count at byte 80 says {} triangles, which take 84 + 50 x {} = "
        "{} bytes, but the file has {} ({} missing)",
        n, n, need, s.size(), need - s.size());
  if (s.size() - need >= kTriangleBytes)
    return fmt::format(
        "binary STL whose count at byte 80 says {} triangles ({} bytes), but the file has {} bytes "
        "({} more): the count is wrong or this is not an STL file",
        n, need, s.size(), s.size() - need);
  return {};
}

/// The binary header as a name: up to its first NUL, printable ASCII only,
/// trimmed.
std::string header_name(std::string_view s) {
  std::string name;
  for (char c : s.substr(0, std::min<std::size_t>(s.find('\0'), 80)))
    name += (c >= 0x20 && c < 0x7f) ? c : '?';
  const auto b = name.find_first_not_of(' ');
  if (b == std::string::npos) return {};
  return name.substr(b, name.find_last_not_of(' ') - b + 1);
}

Mesh parse_binary(std::string_view s, const std::string& source, MeshStats& st) {
  const std::uint64_t n = le32(s.data() + 80);
  if (n == 0)
    throw Error(
        fmt::format("{}: binary STL with no triangles (the count at byte 80 is 0)", source));
  // binary_size_problem() is empty: the n triangles are in `s`, so the
  // allocation below is bounded by the size of the file.
  Mesh m;
  m.triangles.resize(static_cast<std::size_t>(n));
  static constexpr const char* kAxis[3] = {"x", "y", "z"};
  for (std::uint64_t i = 0; i < n; ++i) {
    const char* rec = s.data() + kHeaderBytes + kTriangleBytes * i;
    Triangle& t = m.triangles[static_cast<std::size_t>(i)];
    Vec3* v[3] = {&t.a, &t.b, &t.c};
    for (int k = 0; k < 3; ++k)
      for (int d = 0; d < 3; ++d) {
        const float x = le_float(rec + 12 + 12 * k + 4 * d);
        if (!std::isfinite(x))
          throw Error(fmt::format(
              "{}: binary STL triangle {} of {} (at byte {}): vertex {} has {} = {}, expected a "
              "finite number",
              source, i + 1, n, kHeaderBytes + kTriangleBytes * i, k + 1, kAxis[d], x));
        (*v[k])[d] = x;
      }
  }
  st.format = MeshStats::Format::binary;
  st.name = header_name(s.substr(0, 80));
  st.solids = 1;
  st.trailing_bytes = static_cast<std::size_t>(s.size() - kHeaderBytes - kTriangleBytes * n);
  return m;
}

/// A problem in an ASCII file: its line and what is wrong.
struct AsciiProblem {
  long line;
  std::string what;
};

/// The tokens of an ASCII STL file (runs of non-white-space), with lines.
class Lexer {
 public:
  explicit Lexer(std::string_view s) : s_(s) {
    if (s_.starts_with("\xEF\xBB\xBF")) pos_ = 3;
  }

  /// The next token, empty at the end of the file; line() is its line.
  std::string_view next() {
    while (pos_ < s_.size() && is_space(s_[pos_])) {
      if (s_[pos_] == '\n') ++line_;
      ++pos_;
    }
    if (pos_ < s_.size()) tok_line_ = line_;
    const std::size_t start = pos_;
    while (pos_ < s_.size() && !is_space(s_[pos_])) ++pos_;
    return s_.substr(start, pos_ - start);
  }

  /// The words that follow on the current line up to (not including) one of
  /// `stop` (a one-line file has "solid name facet ..."), joined by spaces.
  std::string name_on_line(std::initializer_list<std::string_view> stop) {
    std::string name;
    for (;;) {
      while (pos_ < s_.size() && is_space(s_[pos_]) && s_[pos_] != '\n') ++pos_;
      if (pos_ >= s_.size() || s_[pos_] == '\n') return name;
      const std::size_t start = pos_;
      while (pos_ < s_.size() && !is_space(s_[pos_])) ++pos_;
      const std::string_view word = s_.substr(start, pos_ - start);
      if (std::any_of(stop.begin(), stop.end(), [&](auto w) { return is_word(word, w); })) {
        pos_ = start;
        return name;
      }
      if (!name.empty()) name += ' ';
      name += word;
    }
  }

  /// The line of the last token (that of the end of the file: the last token's).
  long line() const { return tok_line_; }

 private:
  std::string_view s_;
  std::size_t pos_ = 0;
  long line_ = 1, tok_line_ = 1;
};

std::string found(std::string_view tok) {
  return tok.empty() ? std::string("the end of the file") : fmt::format("'{}'", shown(tok));
}

/// Whether a token that from_chars read as a whole but found outside the
/// double range is tiny (below it) rather than huge: the decimal exponent of
/// its first non-zero digit is negative.
bool is_tiny(std::string_view tok) {
  std::size_t p = 0;
  if (p < tok.size() && (tok[p] == '-' || tok[p] == '+')) ++p;
  bool seen_point = false, seen_digit = false;
  long long before_point = 0, zeros_after_point = 0;
  for (; p < tok.size() && tok[p] != 'e' && tok[p] != 'E'; ++p) {
    if (tok[p] == '.') {
      seen_point = true;
    } else if (!seen_digit && tok[p] == '0') {
      if (seen_point) ++zeros_after_point;
    } else {
      if (!seen_digit) seen_digit = true;
      if (!seen_point) ++before_point;
    }
  }
  const long long magnitude = before_point > 0 ? before_point - 1 : -(zeros_after_point + 1);
  long long exp = 0;
  if (p < tok.size()) {
    const char* b = tok.data() + p + 1;
    const char* e = tok.data() + tok.size();
    if (b != e && *b == '+') ++b;
    if (std::from_chars(b, e, exp).ec == std::errc::result_out_of_range)
      exp = (*b == '-') ? std::numeric_limits<long long>::min() / 2
                        : std::numeric_limits<long long>::max() / 2;
  }
  return magnitude + exp < 0;
}

enum class ParseResult { ok, not_a_number, out_of_range };

/// Parses a whole token as a float (C locale; an optional leading '+').
/// Numbers below the float range become subnormal or zero; inf and nan are
/// returned as such.
ParseResult parse_float(std::string_view tok, float& out) {
  const char* b = tok.data();
  const char* e = b + tok.size();
  if (b != e && *b == '+' && e - b > 1 && *(b + 1) != '-' && *(b + 1) != '+') ++b;
  auto [p, ec] = std::from_chars(b, e, out);
  if (p != e) return ParseResult::not_a_number;
  if (ec == std::errc()) return ParseResult::ok;
  if (ec != std::errc::result_out_of_range) return ParseResult::not_a_number;
  double d = 0;
  auto [pd, ecd] = std::from_chars(b, e, d);
  if (ecd == std::errc() && pd == e && std::fabs(d) < 1) {
    out = static_cast<float>(d);  // below the float range: subnormal or zero
    return ParseResult::ok;
  }
  if (ecd == std::errc::result_out_of_range && pd == e && is_tiny(tok)) {
    out = *b == '-' ? -0.0f : 0.0f;
    return ParseResult::ok;
  }
  return ParseResult::out_of_range;
}

class AsciiParser {
 public:
  AsciiParser(std::string_view s, MeshStats& st) : lx_(s), st_(st) {}

  Mesh parse() {
    Mesh m;
    std::string_view tok = lx_.next();
    while (!tok.empty()) {
      if (!is_word(tok, "solid"))
        fail(st_.solids == 0
                 ? fmt::format("expected 'solid', found {}", found(tok))
                 : fmt::format("expected 'solid' or the end of the file after 'endsolid', found {}",
                               found(tok)));
      std::string name = lx_.name_on_line({"facet", "endsolid"});
      if (st_.solids++ == 0) st_.name = std::move(name);
      for (;;) {
        tok = lx_.next();
        if (is_word(tok, "endsolid")) break;
        if (!is_word(tok, "facet"))
          fail(fmt::format("expected 'facet' or 'endsolid', found {}", found(tok)));
        m.triangles.push_back(facet());
      }
      lx_.name_on_line({"solid"});
      tok = lx_.next();
    }
    if (m.empty())
      fail(fmt::format("no facets in {} (an STL file needs at least one triangle)",
                       st_.solids == 1 ? "the solid" : "any of the solids"));
    st_.format = MeshStats::Format::ascii;
    return m;
  }

 private:
  [[noreturn]] void fail(std::string what) { throw AsciiProblem{lx_.line(), std::move(what)}; }

  void expect(std::string_view word, std::string_view after) {
    const std::string_view tok = lx_.next();
    if (!is_word(tok, word))
      fail(fmt::format("expected '{}' after '{}', found {}", word, after, found(tok)));
  }

  float number(const std::string& what, bool finite) {
    const std::string_view tok = lx_.next();
    float v = 0;
    switch (parse_float(tok, v)) {
      case ParseResult::not_a_number:
        fail(fmt::format("expected a number ({}), found {}", what, found(tok)));
      case ParseResult::out_of_range:
        fail(fmt::format("{} is '{}', outside the float range (magnitude above 3.4e38)", what,
                         shown(tok)));
      case ParseResult::ok:
        break;
    }
    if (finite && !std::isfinite(v))
      fail(fmt::format("{} is '{}', expected a finite number", what, shown(tok)));
    return v;
  }

  Triangle facet() {
    const long facet_line = lx_.line();
    expect("normal", "facet");
    // Normals are read (they must be numbers) but not kept: non-finite ones,
    // which some exporters write for degenerate facets, are allowed.
    for (const char* axis : {"x", "y", "z"}) number(fmt::format("normal {}", axis), false);
    expect("outer", "facet normal");
    expect("loop", "outer");
    Triangle t;
    Vec3* v[3] = {&t.a, &t.b, &t.c};
    int count = 0;
    for (;;) {
      const std::string_view tok = lx_.next();
      if (count < 3 && is_word(tok, "vertex")) {
        ++count;
        static constexpr const char* kAxis[3] = {"x", "y", "z"};
        for (int d = 0; d < 3; ++d)
          (*v[count - 1])[d] = number(fmt::format("vertex {} {}", count, kAxis[d]), true);
        continue;
      }
      if (is_word(tok, "endloop")) break;
      fail(fmt::format("expected {} in the facet of line {}, found {}",
                       count < 3 ? "'vertex' or 'endloop'" : "'endloop' after the third vertex",
                       facet_line, found(tok)));
    }
    if (count != 3)
      fail(fmt::format("the facet of line {} has {} vertices, expected 3", facet_line, count));
    expect("endfacet", "endloop");
    return t;
  }

  Lexer lx_;
  MeshStats& st_;
};

}  // namespace

Vec3 Box::centre() const {
  Vec3 c;
  for (int d = 0; d < 3; ++d) c[d] = static_cast<float>(0.5 * (double(lo[d]) + double(hi[d])));
  return c;
}

bool Box::contains(const Vec3& p) const {
  for (int d = 0; d < 3; ++d)
    if (!(p[d] >= lo[d] && p[d] <= hi[d])) return false;
  return true;
}

Box Mesh::bounds() const {
  if (triangles.empty()) throw Error("the bounding box of an empty mesh");
  Box b{triangles.front().a, triangles.front().a};
  for (const Triangle& t : triangles)
    for (const Vec3* v : {&t.a, &t.b, &t.c})
      for (int d = 0; d < 3; ++d) {
        b.lo[d] = std::min(b.lo[d], (*v)[d]);
        b.hi[d] = std::max(b.hi[d], (*v)[d]);
      }
  return b;
}

bool is_degenerate(const Triangle& t) {
  double u[3], w[3];
  for (int d = 0; d < 3; ++d) {
    u[d] = double(t.b[d]) - double(t.a[d]);
    w[d] = double(t.c[d]) - double(t.a[d]);
  }
  return u[1] * w[2] - u[2] * w[1] == 0 && u[2] * w[0] - u[0] * w[2] == 0 &&
         u[0] * w[1] - u[1] * w[0] == 0;
}

Mesh parse_stl(std::string_view bytes, const std::string& source, MeshStats* stats) {
  MeshStats st;
  if (bytes.empty())
    throw Error(fmt::format(
        "{}: empty file (expected STL: binary with an 84-byte header, or ASCII starting with "
        "'solid')",
        source));
  const bool solid = starts_with_solid(bytes);
  const std::string size_problem = binary_size_problem(bytes);
  Mesh m;
  if (size_problem.empty()) {
    // The size matches the count: binary, whatever the header says ("solid"
    // starts many binary headers).
    m = parse_binary(bytes, source, st);
  } else if (solid) {
    try {
      m = AsciiParser(bytes, st).parse();
    } catch (const AsciiProblem& p) {
      if (!looks_binary(bytes)) throw Error(fmt::format("{}:{}: {}", source, p.line, p.what));
      throw Error(fmt::format(
          "{}: starts with 'solid' but holds binary data, and is not a complete binary STL: {} "
          "(read as ASCII STL instead, line {}: {})",
          source, size_problem, p.line, p.what));
    }
  } else {
    throw Error(fmt::format(
        "{}: {}{}", source, size_problem,
        looks_binary(bytes) ? "" : ", and it is not ASCII STL either (which starts with 'solid')"));
  }
  st.triangles = m.size();
  st.degenerate = static_cast<std::size_t>(
      std::count_if(m.triangles.begin(), m.triangles.end(), is_degenerate));
  if (stats) *stats = std::move(st);
  return m;
}

Mesh read_stl(const std::filesystem::path& path, MeshStats* stats) {
  // The magic bytes of other formats are kept: a binary STL header is free text.
  const std::string bytes = read_file_bytes(path, ForeignData::keep);
  Mesh m = parse_stl(bytes, path.string(), stats);
  if (stats) {  // what read_file_bytes decompressed: gzip or bzip2 magic bytes
    char magic[4] = {};
    std::ifstream(path, std::ios::binary).read(magic, 4);
    stats->compressed = (magic[0] == '\x1f' && magic[1] == '\x8b') ||
                        (std::memcmp(magic, "BZh", 3) == 0 && magic[3] >= '1' && magic[3] <= '9');
  }
  return m;
}

}  // namespace tessera::io
