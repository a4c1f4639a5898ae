// The ESRI ASCII grid reader (strict) and its use as bathymetry.
#include <algorithm>
#include <cctype>
#include <charconv>
#include <fstream>
#include <limits>
#include <sstream>

#include <fmt/format.h>

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
  bool have[5] = {false, false, false, false, false};  // ncols nrows x y cellsize
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
      g.cellsize = num;
      have[4] = true;
    } else if (key == "nodata_value") {
      g.nodata = num;
      g.has_nodata = true;
    } else
      throw fail(line,
                 fmt::format("unknown header keyword '{}' (expected ncols, nrows, "
                             "xllcorner/xllcenter, yllcorner/yllcenter, cellsize, NODATA_value)",
                             key));
    data_start = in.tellg();
  }
  const char* names[5] = {"ncols", "nrows", "xllcorner", "yllcorner", "cellsize"};
  for (int k = 0; k < 5; ++k)
    if (!have[k]) throw fail(line + 1, fmt::format("header lacks {}", names[k]));
  if (centre) {  // centre of the lower-left cell -> its corner
    g.xll -= 0.5 * g.cellsize;
    g.yll -= 0.5 * g.cellsize;
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
  if (any_nodata && nodata_error) throw UsageError("bathymetry has NODATA cells");
  if (!std::isfinite(high)) throw UsageError("bathymetry holds only NODATA cells");
  const double wall = high + 1000.0;  // NODATA: ground no water reaches
  c.dx = c.dy = g.cellsize;
  c.x0 = g.xll;
  c.y0 = g.yll;
  for (long r = 0; r < g.nrows; ++r)
    for (long col = 0; col < g.ncols; ++col) {
      const double v = g.at(r, col);
      const long j = g.nrows - 1 - r;  // the first row is the top (largest y)
      c.z[col * c.ny + j] = g.has_nodata && v == g.nodata ? wall : v;
    }
}

}  // namespace tessera::swe
