// Internals of the Matrix Market reader and writer: line and token scanning,
// the banner and size line (not part of the API).
#pragma once
#include <cstring>
#include <string>
#include <string_view>

#include "sparse/matrix_market.hpp"

namespace tessera::sparse::mm {

/// One line without its '\n' and a trailing '\r' (Windows line endings).
struct Line {
  const char* b;
  const char* e;
  std::string_view view() const { return {b, static_cast<std::size_t>(e - b)}; }
};

/// The line starting at p; p moves to the start of the next line.
inline Line next_line(const char*& p, const char* end) {
  const char* nl =
      static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)));
  Line l{p, nl ? nl : end};
  p = nl ? nl + 1 : end;
  if (l.e > l.b && l.e[-1] == '\r') --l.e;
  return l;
}

inline bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/// Next whitespace-separated token of [p, e); empty view at the end.
inline std::string_view next_token(const char*& p, const char* e) {
  while (p < e && is_space(*p)) ++p;
  const char* b = p;
  while (p < e && !is_space(*p)) ++p;
  return {b, static_cast<std::size_t>(p - b)};
}

/// Blank lines and comment lines (first non-blank character '%') carry no data.
inline bool is_data(Line l) {
  const char* p = l.b;
  while (p < l.e && is_space(*p)) ++p;
  return p < l.e && *p != '%';
}

/// A token quoted for a message, shortened if long.
std::string quote(std::string_view token);

/// Throws Error("<source>:<line>: <reason>").
[[noreturn]] void fail(std::string_view source, size64 line, std::string_view reason);

/// The banner, header comments and size line of `text`.
struct Preamble {
  MmHeader header;
  const char* data = nullptr;  ///< first byte after the size line
  size64 data_line = 0;        ///< line number of the line starting at `data`
  size64 size_line = 0;        ///< line number of the size line
};
Preamble parse_preamble(std::string_view text, std::string_view source);

/// Entries an array file holds: all of them, the lower triangle with the
/// diagonal (symmetric, hermitian) or without it (skew-symmetric).
size64 array_entries(MmSymmetry s, size64 rows, size64 cols, std::string_view source, size64 line);

}  // namespace tessera::sparse::mm
