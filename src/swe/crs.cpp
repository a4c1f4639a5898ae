// A small WKT reader: just the tree of KEYWORD[...] nodes, enough to find
// the coordinate system's kind and linear unit. Written here because GDAL
// (whose OGRSpatialReference does this) is optional at build time, and
// .asc terrains with a .prj must be checked without it.
#include "swe/crs.hpp"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <vector>

#include <fmt/format.h>

#include "core/error.hpp"

namespace tessera::swe {

namespace {

struct Node {
  std::string keyword;  // upper case; empty for a leaf
  std::string text;     // a leaf's value (quotes removed)
  std::vector<Node> children;
};

class Parser {
 public:
  explicit Parser(const std::string& s) : s_(s) {}
  bool node(Node& out, int depth = 0) {
    skip();
    if (depth > 64) return false;
    if (at_ < s_.size() && s_[at_] == '"') {  // a quoted string ("" is a quote)
      for (++at_; at_ < s_.size(); ++at_) {
        if (s_[at_] == '"') {
          if (at_ + 1 < s_.size() && s_[at_ + 1] == '"') {
            out.text += '"';
            ++at_;
            continue;
          }
          ++at_;
          return true;
        }
        out.text += s_[at_];
      }
      return false;
    }
    const std::size_t start = at_;
    while (at_ < s_.size() && !std::strchr("[](),\"", s_[at_]) &&
           !std::isspace(static_cast<unsigned char>(s_[at_])))
      ++at_;
    const std::string word = s_.substr(start, at_ - start);
    if (word.empty()) return false;
    skip();
    if (at_ < s_.size() && (s_[at_] == '[' || s_[at_] == '(')) {
      const char close = s_[at_] == '[' ? ']' : ')';
      ++at_;
      for (const char c : word) out.keyword += static_cast<char>(std::toupper(c));
      for (;;) {
        Node child;
        if (!node(child, depth + 1)) return false;
        out.children.push_back(std::move(child));
        skip();
        if (at_ >= s_.size()) return false;
        if (s_[at_] == ',') {
          ++at_;
          continue;
        }
        if (s_[at_] != close) return false;
        ++at_;
        return true;
      }
    }
    out.text = word;
    return true;
  }

 private:
  void skip() {
    while (at_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[at_]))) ++at_;
  }
  const std::string& s_;
  std::size_t at_ = 0;
};

const Node* child(const Node& n, std::initializer_list<const char*> names) {
  for (const Node& c : n.children)
    for (const char* name : names)
      if (c.keyword == name) return &c;
  return nullptr;
}

// A UNIT/LENGTHUNIT node's name and factor; false where it has none.
bool read_unit(const Node* u, CrsUnit& out) {
  if (!u || u->children.size() < 2) return false;
  char* end = nullptr;
  const double f = std::strtod(u->children[1].text.c_str(), &end);
  if (u->children[1].text.empty() || *end != '\0' || !(f > 0)) return false;
  out.unit = u->children[0].text;
  out.metres = f;
  return true;
}

CrsUnit unit_of(const Node& n) {
  CrsUnit u;
  if (!n.children.empty()) u.crs = n.children[0].text;
  const std::string& k = n.keyword;
  if (k == "COMPD_CS" || k == "COMPOUNDCRS") {  // the horizontal part comes first
    for (const Node& c : n.children)
      if (!c.keyword.empty()) {
        CrsUnit h = unit_of(c);
        if (h.known) return h;
      }
    return u;
  }
  if (k == "BOUNDCRS") {
    if (const Node* s = child(n, {"SOURCECRS"}))
      for (const Node& c : s->children)
        if (!c.keyword.empty()) return unit_of(c);
    return u;
  }
  if (k == "GEOGCS" || k == "GEOGCRS" || k == "GEOGRAPHICCRS") {
    u.known = u.geographic = true;
    return u;
  }
  if (k == "GEODCRS" || k == "GEODETICCRS") {  // geographic where its axes are ellipsoidal
    const Node* cs = child(n, {"CS"});
    u.known = cs && !cs->children.empty() &&
              (cs->children[0].text == "ellipsoidal" || cs->children[0].text == "Ellipsoidal");
    u.geographic = u.known;
    return u;
  }
  if (k == "PROJCS" || k == "PROJCRS" || k == "PROJECTEDCRS" || k == "LOCAL_CS" || k == "ENGCRS" ||
      k == "ENGINEERINGCRS") {
    // WKT1: a UNIT child; WKT2: LENGTHUNIT (or UNIT) at the top or on the axes
    if (read_unit(child(n, {"UNIT", "LENGTHUNIT"}), u)) {
      u.known = true;
      return u;
    }
    for (const Node& c : n.children)
      if (c.keyword == "AXIS" && read_unit(child(c, {"LENGTHUNIT", "UNIT"}), u)) {
        u.known = true;
        return u;
      }
  }
  return u;
}

}  // namespace

CrsUnit crs_unit(const std::string& wkt) {
  Node root;
  Parser p(wkt);
  if (wkt.empty() || !p.node(root) || root.keyword.empty()) return {};
  return unit_of(root);
}

void require_metres(const std::string& path, const std::string& wkt) {
  const CrsUnit u = crs_unit(wkt);
  if (!u.known) return;
  if (u.geographic)
    throw Error(fmt::format(
        "{}: its coordinate system '{}' is geographic (cells in degrees); tessera swe takes cell "
        "sizes in metres: reproject it to a projected system in metres, e.g. gdalwarp -t_srs "
        "EPSG:326NN (the UTM zone NN of the area)",
        path, u.crs));
  if (std::fabs(u.metres - 1) > 1e-9)
    throw Error(fmt::format(
        "{}: the unit of its coordinate system '{}' is {} ({} m); tessera swe takes cell sizes "
        "and elevations in metres: reproject it to a system in metres (gdalwarp -t_srs)",
        path, u.crs, u.unit, u.metres));
}

}  // namespace tessera::swe
