#include "swe/section.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

#include <fmt/format.h>

#include "core/error.hpp"

namespace tessera::swe {

namespace {

bool plain_name(const std::string& s) {
  // a letter, digit or '_' first: the names become NetCDF variables
  if (s.empty() || s.size() > 64 || s[0] == '-') return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-')) return false;
  return true;
}

// The fields of NAME:A:B:...: the name and the numbers; false when a number
// does not parse whole or is not finite.
bool split_numbers(const std::string& spec, std::string& name, std::vector<double>& v) {
  std::size_t at = spec.find(':');
  if (at == std::string::npos) return false;
  name = spec.substr(0, at);
  while (at != std::string::npos) {
    const std::size_t next = spec.find(':', at + 1);
    const std::string s = spec.substr(at + 1, next == std::string::npos ? next : next - at - 1);
    std::size_t used = 0;
    double x = 0;
    try {
      x = std::stod(s, &used);
    } catch (const std::exception&) {
      return false;
    }
    if (used != s.size() || !std::isfinite(x)) return false;
    v.push_back(x);
    at = next;
  }
  return true;
}

}  // namespace

Section parse_section(const std::string& spec, const SectionGrid& g) {
  Section s;
  std::vector<double> v;
  if (!split_numbers(spec, s.name, v) || v.size() != 4 || !plain_name(s.name))
    throw UsageError(fmt::format(
        "--section {}: expected NAME:X0:Y0:X1:Y1 (NAME of letters, digits, '_' and '-', not "
        "starting with '-'; the "
        "line's ends in world coordinates)",
        spec));
  s.x0 = v[0], s.y0 = v[1], s.x1 = v[2], s.y1 = v[3];
  const double xe = g.x0 + double(g.nx) * g.dx, ye = g.y0 + double(g.ny) * g.dy;
  for (const auto& [x, y] : {std::pair{s.x0, s.y0}, {s.x1, s.y1}})
    if (!(x >= g.x0 && x <= xe && y >= g.y0 && y <= ye))
      throw UsageError(
          fmt::format("--section {}: the end ({}, {}) lies outside the grid [{}, {}] x "
                      "[{}, {}]",
                      spec, x, y, g.x0, xe, g.y0, ye));
  const double ex = s.x1 - s.x0, ey = s.y1 - s.y0, len2 = ex * ex + ey * ey;
  if (!(len2 > 0)) throw UsageError(fmt::format("--section {}: the line has zero length", spec));
  // which side of the line a point lies on (> 0: left), and where its
  // projection falls along the segment (0 .. 1 from the first end)
  auto left = [&](double x, double y) { return ex * (y - s.y0) - ey * (x - s.x0) > 0; };
  auto along = [&](double x, double y) { return (ex * (x - s.x0) + ey * (y - s.y0)) / len2; };
  auto cx = [&](long i) { return g.x0 + (double(i) + 0.5) * g.dx; };
  auto cy = [&](long j) { return g.y0 + (double(j) + 0.5) * g.dy; };
  // the faces lie near the segment's bounding box: within a cell, or within
  // the other side's length on cells stretched one way (a line's end face
  // can lie a long cell beyond the box)
  const long mx = 1 + long(std::ceil(g.dy / g.dx)), my = 1 + long(std::ceil(g.dx / g.dy));
  const long i0 = std::max(0L, long(std::floor((std::min(s.x0, s.x1) - g.x0) / g.dx)) - mx),
             i1 = std::min(g.nx - 1, long(std::floor((std::max(s.x0, s.x1) - g.x0) / g.dx)) + mx),
             j0 = std::max(0L, long(std::floor((std::min(s.y0, s.y1) - g.y0) / g.dy)) - my),
             j1 = std::min(g.ny - 1, long(std::floor((std::max(s.y0, s.y1) - g.y0) / g.dy)) + my);
  for (long i = i0; i <= i1; ++i)
    for (long j = j0; j <= j1; ++j) {
      const bool l = left(cx(i), cy(j));
      if (i + 1 <= i1 && left(cx(i + 1), cy(j)) != l) {  // the x-face (i, j) | (i + 1, j)
        const double t = along(g.x0 + double(i + 1) * g.dx, cy(j));
        if (t >= 0 && t <= 1) s.faces.push_back({i, j, false, l ? 1 : -1});
      }
      if (j + 1 <= j1 && left(cx(i), cy(j + 1)) != l) {  // the y-face (i, j) | (i, j + 1)
        const double t = along(cx(i), g.y0 + double(j + 1) * g.dy);
        if (t >= 0 && t <= 1) s.faces.push_back({i, j, true, l ? 1 : -1});
      }
    }
  if (s.faces.empty())
    throw UsageError(fmt::format(
        "--section {}: the line separates no two cells (it must cross at least one cell face: "
        "the cells are {} x {})",
        spec, g.dx, g.dy));
  return s;
}

std::vector<double> section_volumes(const std::vector<Section>& sections,
                                    const std::vector<double>& acc, double dx, double dy) {
  std::vector<double> v;
  std::size_t k = 0;
  for (const Section& s : sections) {
    double sum = 0;
    for (const SectionFace& f : s.faces) sum += acc.at(k++) * (f.y ? dx : dy);
    v.push_back(sum);
  }
  return v;
}

std::size_t section_faces(const std::vector<Section>& sections) {
  std::size_t n = 0;
  for (const Section& s : sections) n += s.faces.size();
  return n;
}

}  // namespace tessera::swe
