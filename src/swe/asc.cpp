// The ESRI ASCII grid reader (strict) and its use as bathymetry.
#include <algorithm>
#include <cctype>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <sstream>

#include <fmt/format.h>

#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "swe/cases.hpp"

namespace tessera::swe {

namespace {

std::string lower(std::string s) {
  for (char& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return s;
}

bool parse_number(const std::string& tok, double& v) {
  const char* b = tok.data();
  const char* e = b + tok.size();
  if (b != e && *b == '+') ++b;
  auto [p, ec] = std::from_chars(b, e, v);
  return ec == std::errc() && p == e && std::isfinite(v);
}

// The WKT of an ESRI .prj file beside a grid (one line, or several joined),
// or "" when there is none. Refused: a .prj that cannot be read, is empty or
// holds what is not printable ASCII WKT.
std::string read_prj(const std::filesystem::path& prj) {
  std::error_code ec;
  if (!std::filesystem::exists(prj, ec)) return "";
  std::ifstream in(prj, std::ios::binary);
  if (!in) throw Error(fmt::format("{}: cannot open", prj.string()));
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (text.size() > (1u << 20))
    throw Error(
        fmt::format("{}: {} bytes: not a projection (WKT is a few kB)", prj.string(), text.size()));
  std::string wkt;
  for (unsigned char ch : text) {
    if (ch == '\r' || ch == '\n' || ch == '\t') ch = ' ';
    if (ch < 0x20 || ch >= 0x7f)
      throw Error(fmt::format("{}: byte 0x{:02X} at offset {}: WKT is printable ASCII",
                              prj.string(), ch, wkt.size()));
    if (ch == ' ' && (wkt.empty() || wkt.back() == ' ')) continue;
    wkt += char(ch);
  }
  while (!wkt.empty() && wkt.back() == ' ') wkt.pop_back();
  if (wkt.empty()) throw Error(fmt::format("{}: empty projection file", prj.string()));
  const auto open = wkt.find('[');
  if (open == std::string::npos || wkt.back() != ']' || open == 0)
    throw Error(
        fmt::format("{}: expected WKT (NAME[...]), found '{}'", prj.string(), wkt.substr(0, 40)));
  return wkt;
}

}  // namespace

AscGrid read_asc(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw Error(fmt::format("{}: cannot open", path));
  AscGrid g;
  auto fail = [&](long line, const std::string& what) -> Error {
    return Error(fmt::format("{}:{}: {}", path, line, what));
  };
  std::string text;
  long line = 0;
  bool have[5] = {false, false, false, false, false};  // ncols nrows x y cellsize/dx+dy
  bool have_dx = false, have_dy = false;
  long cellsize_line = 0, dxy_line = 0;
  bool centre = false;
  // header: "key value" lines until the first line that starts with a number
  std::streampos data_start = in.tellg();
  while (std::getline(in, text)) {
    ++line;
    std::istringstream ls(text);
    std::string key, val, extra;
    if (!(ls >> key)) throw fail(line, "empty line in the header");
    double num;
    if (parse_number(key, num) || key[0] == '-') {  // first data line
      --line;
      break;
    }
    if (!(ls >> val) || (ls >> extra))
      throw fail(line, fmt::format("expected '<keyword> <value>', got '{}'", text));
    if (!parse_number(val, num)) throw fail(line, fmt::format("'{}' is not a number", val));
    key = lower(key);
    auto count = [&](long& dst, int k) {
      if (num < 1 || num != std::floor(num) || num > 1e9)
        throw fail(line, fmt::format("{} must be a positive integer, got {}", key, val));
      dst = static_cast<long>(num);
      have[k] = true;
    };
    if (key == "ncols")
      count(g.ncols, 0);
    else if (key == "nrows")
      count(g.nrows, 1);
    else if (key == "xllcorner" || key == "xllcenter") {
      g.xll = num;
      have[2] = true;
      centre = key == "xllcenter";
    } else if (key == "yllcorner" || key == "yllcenter") {
      g.yll = num;
      have[3] = true;
    } else if (key == "cellsize") {
      if (!(num > 0)) throw fail(line, fmt::format("cellsize must be positive, got {}", val));
      g.cellsize = g.dx = g.dy = num;
      have[4] = true;
      cellsize_line = line;
    } else if (key == "dx" || key == "dy") {  // GDAL's AAIGrid for non-square cells
      if (!(num > 0)) throw fail(line, fmt::format("{} must be positive, got {}", key, val));
      (key == "dx" ? g.dx : g.dy) = num;
      (key == "dx" ? have_dx : have_dy) = true;
      dxy_line = line;
    } else if (key == "nodata_value") {
      g.nodata = num;
      g.has_nodata = true;
    } else
      throw fail(line,
                 fmt::format("unknown header keyword '{}' (expected ncols, nrows, "
                             "xllcorner/xllcenter, yllcorner/yllcenter, cellsize or dx and dy, "
                             "NODATA_value)",
                             key));
    data_start = in.tellg();
  }
  if (have[4] && (have_dx || have_dy))
    throw fail(dxy_line,
               fmt::format("cellsize (line {}) and dx/dy: give one or the other", cellsize_line));
  if (have_dx != have_dy)
    throw fail(dxy_line, fmt::format("{} without {}: non-square cells need both",
                                     have_dx ? "dx" : "dy", have_dx ? "dy" : "dx"));
  have[4] = have[4] || (have_dx && have_dy);
  const char* names[5] = {"ncols", "nrows", "xllcorner", "yllcorner", "cellsize (or dx and dy)"};
  for (int k = 0; k < 5; ++k)
    if (!have[k]) throw fail(line + 1, fmt::format("header lacks {}", names[k]));
  if (centre) {  // centre of the lower-left cell -> its corner
    g.xll -= 0.5 * g.dx;
    g.yll -= 0.5 * g.dy;
  }
  in.clear();
  in.seekg(data_start);
  // Each value takes at least one byte of the file: reserve no more than it
  // can hold (a forged header must not ask for terabytes; found by fuzzing).
  in.seekg(0, std::ios::end);
  const auto file_end = in.tellg();
  in.seekg(data_start);
  const double cells = double(g.ncols) * double(g.nrows);
  if (file_end >= data_start && cells > double(file_end - data_start))
    throw fail(line + 1,
               fmt::format("the header announces {} x {} values, more than the rest of the file "
                           "can hold (truncated?)",
                           g.ncols, g.nrows));
  g.values.reserve(static_cast<std::size_t>(cells));
  for (long r = 0; r < g.nrows; ++r) {
    ++line;
    if (!std::getline(in, text))
      throw fail(line, fmt::format("file ends after {} of {} data rows (truncated?)", r, g.nrows));
    std::istringstream ls(text);
    std::string tok;
    long n = 0;
    while (ls >> tok) {
      double v;
      if (!parse_number(tok, v)) throw fail(line, fmt::format("'{}' is not a number", tok));
      if (++n > g.ncols) break;
      g.values.push_back(v);
    }
    if (n != g.ncols)
      throw fail(line, fmt::format("expected {} values in data row {}, got {}{}", g.ncols, r + 1,
                                   n > g.ncols ? "more" : std::to_string(n), ""));
  }
  while (std::getline(in, text)) {
    ++line;
    if (text.find_first_not_of(" \t\r") != std::string::npos)
      throw fail(line,
                 fmt::format("unexpected data after the {} rows the header announced", g.nrows));
  }
  g.crs_wkt = read_prj(std::filesystem::path(path).replace_extension(".prj"));
  return g;
}

void apply_bathymetry(PhysCase& c, const AscGrid& g, bool nodata_error) {
  if (g.ncols != c.nx || g.nrows != c.ny)
    throw UsageError(
        fmt::format("bathymetry grid is {} columns x {} rows but the case has {} x {} "
                    "cells (x = columns, y = rows)",
                    g.ncols, g.nrows, c.nx, c.ny));
  double high = -std::numeric_limits<double>::infinity();
  bool any_nodata = false;
  for (double v : g.values) {
    if (g.has_nodata && v == g.nodata)
      any_nodata = true;
    else
      high = std::max(high, v);
  }
  if (any_nodata && nodata_error)
    throw UsageError(fmt::format("{}: NODATA cells, and --nodata error refuses them", c.name));
  if (!std::isfinite(high)) throw UsageError(fmt::format("{}: only NODATA cells", c.name));
  const double wall = high + 1000.0;  // NODATA: ground no water reaches
  c.dx = g.dx;
  c.dy = g.dy;
  c.x0 = g.xll;
  c.y0 = g.yll;
  c.crs_wkt = g.crs_wkt;
  c.z_nodata = any_nodata ? wall : std::numeric_limits<double>::infinity();
  for (long r = 0; r < g.nrows; ++r)
    for (long col = 0; col < g.ncols; ++col) {
      const double v = g.at(r, col);
      const long j = g.nrows - 1 - r;  // the first row is the top (largest y)
      c.z[col * c.ny + j] = g.has_nodata && v == g.nodata ? wall : v;
    }
}

}  // namespace tessera::swe

namespace tessera::swe {

void write_asc(const std::string& path, const PhysCase& c, const std::vector<double>& values,
               const std::function<bool(std::size_t)>& nodata) {
  std::string text = fmt::format("ncols {}\nnrows {}\nxllcorner {:.17g}\nyllcorner {:.17g}\n", c.nx,
                                 c.ny, c.x0, c.y0);
  text += c.dx == c.dy ? fmt::format("cellsize {:.17g}\n", c.dx)
                       : fmt::format("dx {:.17g}\ndy {:.17g}\n", c.dx, c.dy);
  text += "NODATA_value -9999\n";
  for (long j = c.ny - 1; j >= 0; --j) {  // the top row (largest y) first
    for (long i = 0; i < c.nx; ++i) {
      const std::size_t k = std::size_t(i * c.ny + j);
      text += fmt::format("{}{:.9g}", i ? " " : "", nodata && nodata(k) ? -9999.0 : values[k]);
    }
    text += "\n";
  }
  write_file_atomic(path, text);
  if (!c.crs_wkt.empty())
    write_file_atomic(std::filesystem::path(path).replace_extension(".prj").string(),
                      c.crs_wkt + "\n");
}

}  // namespace tessera::swe
