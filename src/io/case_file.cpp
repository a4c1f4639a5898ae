// Case files are the subset of TOML that `tessera swe` and `tessera lbm`
// need: one `key = value` per line, values strings, integers, floats or
// booleans (and, where the command allows, one-line arrays of them and table
// headers), comments with '#'. Every case file is valid TOML and means the
// same there.
//
// Why not toml++: fuzzing found five inputs on which toml++ 3.3 (Debian
// bookworm) reaches __builtin_unreachable() or a failed internal assertion,
// which are undefined behaviour in release builds (non-ASCII bytes, a NUL in a
// table header, "[ = ...", "k = [}", a malformed date-time; see
// docs/reliability.md). Each was worked around before toml++ saw the text, but
// the library's unchecked assumptions kept surfacing, and the subset case files
// use is small enough to parse completely and strictly here.
#include "io/case_file.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <map>
#include <set>

#include <fmt/format.h>

#include "core/atomic_file.hpp"
#include "core/error.hpp"

namespace tessera::io {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_bare_key_char(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || is_digit(c) || c == '_' || c == '-';
}

/// One line being parsed; errors carry file:line:column (1-based).
class LineParser {
 public:
  LineParser(const std::string& path, long line, std::string_view text, CaseFileSyntax syntax)
      : path_(path), line_(line), s_(text), syntax_(syntax) {}

  enum class Kind { blank, entry, table, table_array };

  /// Parses the line: a `key = value` into `out`, a table header's name into
  /// `header`, or nothing (a blank or comment line).
  Kind parse(CaseFileEntry& out, std::string& header) {
    skip_space();
    if (at_end_or_comment()) return Kind::blank;
    if (s_[i_] == '[') {
      if (!syntax_.tables)
        fail("tables ([...]) are not part of a case file (flat 'key = value' lines only)");
      return table_header(header);
    }
    if (s_[i_] == '"' || s_[i_] == '\'')
      fail("quoted keys are not used in case files (keys are option names)");
    const std::size_t k0 = i_;
    while (i_ < s_.size() && is_bare_key_char(s_[i_])) ++i_;
    if (i_ == k0)
      fail(fmt::format("expected a key (letters, digits, '-', '_'), found '{}'", s_[i_]));
    out.key = std::string(s_.substr(k0, i_ - k0));
    out.line = line_;
    skip_space();
    if (i_ < s_.size() && s_[i_] == '.')
      fail("dotted keys are not part of a case file (flat 'key = value' lines only)");
    if (i_ >= s_.size() || s_[i_] != '=')
      fail(fmt::format("expected '=' after the key '{}'", out.key));
    ++i_;
    skip_space();
    if (at_end_or_comment()) fail(fmt::format("key '{}' has no value", out.key));
    if (s_[i_] == '[' && syntax_.arrays) {
      out.is_array = true;
      out.items = array(out.key);
    } else {
      out.value = value();
    }
    skip_space();
    if (!at_end_or_comment())
      fail(fmt::format("unexpected '{}' after the value of '{}' (one 'key = value' per line)",
                       s_[i_], out.key));
    return Kind::entry;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw UsageError(fmt::format("{}:{}:{}: {}", path_, line_, i_ + 1, what));
  }
  void skip_space() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t')) ++i_;
  }
  bool at_end_or_comment() const { return i_ >= s_.size() || s_[i_] == '#'; }

  /// `[name]` or `[[name]]`, a bare name, then the end of the line or a comment.
  Kind table_header(std::string& name) {
    const bool of_array = s_.substr(i_, 2) == "[[";
    i_ += of_array ? 2 : 1;
    skip_space();
    const std::size_t n0 = i_;
    while (i_ < s_.size() && is_bare_key_char(s_[i_])) ++i_;
    if (i_ == n0) fail("expected a table name (letters, digits, '-', '_') after '['");
    name = std::string(s_.substr(n0, i_ - n0));
    skip_space();
    if (i_ < s_.size() && s_[i_] == '.') fail("dotted table names are not part of a case file");
    if (s_.substr(i_, of_array ? 2 : 1) != (of_array ? "]]" : "]"))
      fail(fmt::format("expected '{}' to close the table name '{}'", of_array ? "]]" : "]", name));
    i_ += of_array ? 2 : 1;
    skip_space();
    if (!at_end_or_comment()) fail(fmt::format("unexpected '{}' after the table header", s_[i_]));
    return of_array ? Kind::table_array : Kind::table;
  }

  /// A one-line array of scalars: '[' [value (',' value)* [',']] ']'.
  std::vector<std::string> array(const std::string& key) {
    const std::size_t start = i_;
    std::vector<std::string> items;
    ++i_;
    for (;;) {
      skip_space();
      if (i_ >= s_.size() || s_[i_] == '#') {
        i_ = start;
        fail(fmt::format("the array of '{}' must end with ']' on the same line", key));
      }
      if (s_[i_] == ']') break;
      if (s_[i_] == '[' || s_[i_] == '{')
        fail("arrays of arrays or of tables are not part of a case file");
      items.push_back(element());
      skip_space();
      if (i_ < s_.size() && s_[i_] == ',') {
        ++i_;
        continue;
      }
      if (i_ < s_.size() && s_[i_] == ']') break;
      if (i_ >= s_.size() || s_[i_] == '#') continue;  // reported above
      fail(fmt::format("expected ',' or ']' in the array of '{}', found '{}'", key, s_[i_]));
    }
    ++i_;
    return items;
  }

  /// One array element: a scalar ending at ',', ']', a space or a comment.
  std::string element() {
    const char c = s_[i_];
    if (c == '"') return basic_string();
    if (c == '\'') return literal_string();
    const std::size_t v0 = i_;
    while (i_ < s_.size() && s_[i_] != ' ' && s_[i_] != '\t' && s_[i_] != '#' && s_[i_] != ',' &&
           s_[i_] != ']')
      ++i_;
    const std::string_view token = s_.substr(v0, i_ - v0);
    if (token == "true" || token == "false") return std::string(token);
    i_ = v0;
    return number(token);
  }

  std::string value() {
    const char c = s_[i_];
    if (c == '[' || c == '{')
      fail(
          "arrays and inline tables are not part of a case file (values are strings, numbers or booleans)");
    if (c == '"') return basic_string();
    if (c == '\'') return literal_string();
    const std::size_t v0 = i_;
    while (i_ < s_.size() && s_[i_] != ' ' && s_[i_] != '\t' && s_[i_] != '#') ++i_;
    const std::string_view token = s_.substr(v0, i_ - v0);
    if (token == "true" || token == "false") return std::string(token);
    i_ = v0;  // errors point at the value's start
    return number(token);
  }

  std::string basic_string() {
    if (s_.substr(i_, 3) == "\"\"\"") fail("multi-line strings are not part of a case file");
    const std::size_t start = i_;
    std::string out;
    for (++i_; i_ < s_.size(); ++i_) {
      const char c = s_[i_];
      if (c == '"') {
        ++i_;
        return out;
      }
      if (c != '\\') {
        out += c;
        continue;
      }
      if (++i_ >= s_.size()) break;
      switch (s_[i_]) {
        case '"':
          out += '"';
          break;
        case '\\':
          out += '\\';
          break;
        case 'b':
          out += '\b';
          break;
        case 't':
          out += '\t';
          break;
        case 'n':
          out += '\n';
          break;
        case 'f':
          out += '\f';
          break;
        case 'r':
          out += '\r';
          break;
        case 'u':
        case 'U': {
          const std::size_t digits = s_[i_] == 'u' ? 4 : 8;
          unsigned long code = 0;
          const auto* first = s_.data() + i_ + 1;
          const auto* last = first + std::min(digits, s_.size() - i_ - 1);
          const auto r = std::from_chars(first, last, code, 16);
          if (r.ptr != first + digits || r.ec != std::errc{})
            fail(fmt::format("\\{} needs {} hex digits", s_[i_], digits));
          if (code >= 0x80 || code == 0)
            fail("escapes in case files must name printable ASCII characters");
          out += static_cast<char>(code);
          i_ += digits;
          break;
        }
        default:
          fail(fmt::format("unknown escape '\\{}' in a string", s_[i_]));
      }
    }
    i_ = start;
    fail("unterminated string (a string ends with '\"' on the same line)");
  }

  std::string literal_string() {
    if (s_.substr(i_, 3) == "'''") fail("multi-line strings are not part of a case file");
    const std::size_t end = s_.find('\'', i_ + 1);
    if (end == std::string_view::npos)
      fail("unterminated string (a literal string ends with ' on the same line)");
    std::string out(s_.substr(i_ + 1, end - i_ - 1));
    i_ = end + 1;
    return out;
  }

  /// TOML integers (decimal, 0x, 0o, 0b) and floats (with inf and nan),
  /// underscores only between digits; returned as command-line text.
  std::string number(std::string_view t) {
    const std::size_t start = i_;
    i_ += t.size();
    auto bad = [&](const char* what) {
      i_ = start;
      fail(fmt::format(
          "'{}' is not a valid value: {} (values are \"strings\", numbers or true/false)", t,
          what));
    };
    // digits with single underscores between them
    auto strip = [&](std::string_view d, bool hex) {
      std::string out;
      for (std::size_t k = 0; k < d.size(); ++k) {
        const char c = d[k];
        const bool digit = hex ? std::isxdigit(static_cast<unsigned char>(c)) != 0 : is_digit(c);
        if (digit)
          out += c;
        else if (c == '_' && k > 0 && k + 1 < d.size() && d[k + 1] != '_' && d[k - 1] != '_')
          continue;
        else
          return std::string();
      }
      return out;
    };
    std::string_view body = t;
    const bool sign = !body.empty() && (body[0] == '+' || body[0] == '-');
    const bool negative = sign && body[0] == '-';
    if (sign) body.remove_prefix(1);
    if (body == "inf") return negative ? "-inf" : "inf";
    if (body == "nan") return "nan";
    if (body.size() > 2 && body[0] == '0' && (body[1] == 'x' || body[1] == 'o' || body[1] == 'b')) {
      if (sign) bad("prefixed integers take no sign");
      const int base = body[1] == 'x' ? 16 : body[1] == 'o' ? 8 : 2;
      const std::string digits = strip(body.substr(2), base == 16);
      std::int64_t v = 0;
      const auto r = std::from_chars(digits.data(), digits.data() + digits.size(), v, base);
      if (digits.empty() || r.ptr != digits.data() + digits.size())
        bad("malformed prefixed integer");
      if (r.ec == std::errc::result_out_of_range) bad("out of the 64-bit integer range");
      return std::to_string(v);
    }
    // decimal: int part [ '.' digits ] [ ('e'|'E') [sign] digits ]
    const std::size_t dot = body.find('.');
    const std::size_t exp = body.find_first_of("eE");
    const std::size_t int_end = std::min(dot, exp);
    const std::string int_part = strip(body.substr(0, int_end), false);
    if (int_part.empty()) {
      if (body.find_first_of(":T") != std::string_view::npos ||
          body.find('-') != std::string_view::npos)
        bad("dates and times are not part of a case file");
      bad("not a number");
    }
    if (int_part.size() > 1 && int_part[0] == '0') bad("leading zeros are not allowed");
    std::string normal = (negative ? "-" : "") + int_part;
    if (int_end == std::string_view::npos) {
      std::int64_t v = 0;
      const auto r = std::from_chars(normal.data(), normal.data() + normal.size(), v);
      if (r.ec == std::errc::result_out_of_range) bad("out of the 64-bit integer range");
      return std::to_string(v);
    }
    if (dot != std::string_view::npos) {
      if (exp != std::string_view::npos && exp < dot) bad("the exponent comes after the fraction");
      const std::string frac =
          strip(body.substr(dot + 1, exp == std::string_view::npos ? exp : exp - dot - 1), false);
      if (frac.empty()) bad("a '.' needs digits on both sides");
      normal += "." + frac;
    }
    if (exp != std::string_view::npos) {
      std::string_view e = body.substr(exp + 1);
      std::string esign;
      if (!e.empty() && (e[0] == '+' || e[0] == '-'))
        esign = std::string(1, e[0]), e.remove_prefix(1);
      const std::string edigits = strip(e, false);
      if (edigits.empty()) bad("malformed exponent");
      normal += "e" + esign + edigits;
    }
    double v = 0;
    const auto r = std::from_chars(normal.data(), normal.data() + normal.size(), v);
    if (r.ptr != normal.data() + normal.size()) bad("malformed float");
    if (r.ec == std::errc::result_out_of_range) bad("out of the double range");
    return fmt::format("{}", v);  // shortest text that reads back to the same double
  }

  const std::string& path_;
  long line_;
  std::string_view s_;
  CaseFileSyntax syntax_;
  std::size_t i_ = 0;
};

}  // namespace

std::vector<CaseFileEntry> read_case_file(const std::string& path, CaseFileSyntax syntax) {
  const std::string text = read_file(path, "case file");
  // Keys and values are printable ASCII; TOML forbids control characters other
  // than tab and newlines anywhere.
  long line = 1, column = 1;
  for (unsigned char ch : text) {
    if (ch >= 0x80)
      throw UsageError(
          fmt::format("{}:{}:{}: non-ASCII byte 0x{:02X}: case files must be plain ASCII", path,
                      line, column, ch));
    if ((ch < 0x20 && ch != '\t' && ch != '\n' && ch != '\r') || ch == 0x7f)
      throw UsageError(
          fmt::format("{}:{}:{}: control character 0x{:02X} (TOML allows only tab and newlines)",
                      path, line, column, ch));
    if (ch == '\n')
      line++, column = 1;
    else
      column++;
  }
  std::vector<CaseFileEntry> out;
  std::set<std::string> seen, tables;      // "table\nindex\nkey"; plain tables seen
  std::map<std::string, int> array_count;  // [[name]]: how many so far
  std::string table;
  int index = -1;
  line = 1;
  for (std::size_t at = 0; at < text.size(); ++line) {
    std::size_t end = std::min(text.find('\n', at), text.size());
    std::size_t stop = end;
    if (stop > at && text[stop - 1] == '\r') --stop;  // CRLF files
    CaseFileEntry e;
    std::string header;
    using Kind = LineParser::Kind;
    switch (LineParser(path, line, std::string_view(text).substr(at, stop - at), syntax)
                .parse(e, header)) {
      case Kind::blank:
        break;
      case Kind::table:
        if (array_count.count(header) || !tables.insert(header).second)
          throw UsageError(fmt::format("{}:{}: table [{}] is given twice", path, line, header));
        table = header, index = -1;
        break;
      case Kind::table_array:
        if (tables.count(header))
          throw UsageError(
              fmt::format("{}:{}: [[{}]] repeats the table [{}]", path, line, header, header));
        table = header, index = array_count[header]++;
        break;
      case Kind::entry:
        e.table = table;
        e.index = index;
        if (!seen.insert(table + '\n' + std::to_string(index) + '\n' + e.key).second)
          throw UsageError(fmt::format("{}:{}: key '{}' is given twice{}", path, line, e.key,
                                       table.empty() ? "" : " in [" + table + "]"));
        out.push_back(std::move(e));
        break;
    }
    at = end + 1;
  }
  return out;
}

std::string where(const std::string& path, const CaseFileEntry& e) {
  return fmt::format("{}:{}", path, e.line);
}

}  // namespace tessera::io
