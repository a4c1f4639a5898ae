// STL reading: binary and ASCII files written here byte by byte (a cube of 12
// triangles, a binary header that starts with "solid", CRLF and odd white
// space, scientific notation, gzip through zlib), checked triangle by triangle
// against the values written; and every kind of bad input refused with an
// Error naming the file (and, for ASCII, the line).
#include <gtest/gtest.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/error.hpp"
#include "io/stl.hpp"

namespace tessera::io {
namespace {

namespace fs = std::filesystem;

/// A cube of edge 0.3 at (0.1, -2.75, 1e-3), 12 triangles, outward normals by
/// the right-hand rule; coordinates that are not round in binary.
std::vector<Triangle> cube() {
  const float o[3] = {0.1f, -2.75f, 1e-3f}, h = 0.3f;
  auto c = [&](int x, int y, int z) {
    return Vec3{o[0] + h * float(x), o[1] + h * float(y), o[2] + h * float(z)};
  };
  return {
      {c(0, 0, 0), c(0, 1, 0), c(1, 1, 0)}, {c(0, 0, 0), c(1, 1, 0), c(1, 0, 0)},  // z = 0
      {c(0, 0, 1), c(1, 0, 1), c(1, 1, 1)}, {c(0, 0, 1), c(1, 1, 1), c(0, 1, 1)},  // z = 1
      {c(0, 0, 0), c(1, 0, 0), c(1, 0, 1)}, {c(0, 0, 0), c(1, 0, 1), c(0, 0, 1)},  // y = 0
      {c(0, 1, 0), c(0, 1, 1), c(1, 1, 1)}, {c(0, 1, 0), c(1, 1, 1), c(1, 1, 0)},  // y = 1
      {c(0, 0, 0), c(0, 0, 1), c(0, 1, 1)}, {c(0, 0, 0), c(0, 1, 1), c(0, 1, 0)},  // x = 0
      {c(1, 0, 0), c(1, 1, 0), c(1, 1, 1)}, {c(1, 0, 0), c(1, 1, 1), c(1, 0, 1)},  // x = 1
  };
}

void put_u32(std::string& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out += static_cast<char>((v >> (8 * i)) & 0xff);
}
void put_f32(std::string& out, float f) { put_u32(out, std::bit_cast<std::uint32_t>(f)); }

/// A binary STL: the header padded with NULs to 80 bytes, the count (that of
/// the triangles unless given), then per triangle a normal, the vertices and
/// a non-zero attribute word (which readers ignore).
std::string binary_stl(std::string header, const std::vector<Triangle>& tris,
                       std::optional<std::uint32_t> count = {}) {
  header.resize(80, '\0');
  std::string out = header;
  put_u32(out, count.value_or(static_cast<std::uint32_t>(tris.size())));
  for (const Triangle& t : tris) {
    for (float n : {0.25f, -0.5f, 1.0f}) put_f32(out, n);
    for (const Vec3* v : {&t.a, &t.b, &t.c})
      for (float x : *v) put_f32(out, x);
    out += "\x12\x34";
  }
  return out;
}

/// An ASCII STL, each float in the shortest form that reads back exactly.
std::string ascii_stl(const std::vector<Triangle>& tris, const std::string& name = "cube") {
  std::string s = "solid " + name + "\n";
  for (const Triangle& t : tris) {
    s += "  facet normal 0 0 1\n    outer loop\n";
    for (const Vec3* v : {&t.a, &t.b, &t.c})
      s += fmt::format("      vertex {} {} {}\n", (*v)[0], (*v)[1], (*v)[2]);
    s += "    endloop\n  endfacet\n";
  }
  return s + "endsolid " + name + "\n";
}

/// gzip (RFC 1952) through zlib directly, not through tessera.
std::string gzip(const std::string& data) {
  z_stream zs{};
  EXPECT_EQ(deflateInit2(&zs, 9, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
  std::string out(deflateBound(&zs, static_cast<uLong>(data.size())) + 64, '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  zs.avail_in = static_cast<uInt>(data.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(deflate(&zs, Z_FINISH), Z_STREAM_END);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  return out;
}

class Stl : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           fmt::format("tessera-stl-{}-{}", ::getpid(),
                       ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path file(const std::string& name, const std::string& content) const {
    const fs::path p = dir_ / name;
    std::ofstream(p, std::ios::binary) << content;
    return p;
  }
  /// Expects read_stl to throw an Error whose message holds the file's path
  /// and each of `parts`; returns the message.
  std::string expect_error(const std::string& name, const std::string& content,
                           const std::vector<std::string>& parts) {
    const fs::path p = file(name, content);
    try {
      const Mesh m = read_stl(p);
      ADD_FAILURE() << name << ": accepted (" << m.size() << " triangles)";
      return {};
    } catch (const Error& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find(p.string()), std::string::npos) << "no file name in: " << what;
      for (const auto& part : parts)
        EXPECT_NE(what.find(part), std::string::npos) << "'" << part << "' not in: " << what;
      return what;
    }
  }
  fs::path dir_;
};

void expect_same(const std::vector<Triangle>& got, const std::vector<Triangle>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    const Vec3* g[3] = {&got[i].a, &got[i].b, &got[i].c};
    const Vec3* w[3] = {&want[i].a, &want[i].b, &want[i].c};
    for (int k = 0; k < 3; ++k)
      for (int d = 0; d < 3; ++d)
        EXPECT_EQ(std::bit_cast<std::uint32_t>((*g[k])[d]),
                  std::bit_cast<std::uint32_t>((*w[k])[d]))
            << "triangle " << i << " vertex " << k << " axis " << d << ": " << (*g[k])[d]
            << " != " << (*w[k])[d];
  }
}

TEST_F(Stl, BinaryCubeReadsExactly) {
  MeshStats st;
  const Mesh m = read_stl(file("cube.stl", binary_stl("made by hand", cube())), &st);
  expect_same(m.triangles, cube());
  EXPECT_EQ(st.format, MeshStats::Format::binary);
  EXPECT_EQ(st.name, "made by hand");
  EXPECT_EQ(st.triangles, 12u);
  EXPECT_EQ(st.degenerate, 0u);
  EXPECT_EQ(st.trailing_bytes, 0u);
  EXPECT_FALSE(st.compressed);
  // bounding box: the corners the cube was built from
  const Box b = m.bounds();
  EXPECT_EQ(b.lo, (Vec3{0.1f, -2.75f, 1e-3f}));
  EXPECT_EQ(b.hi, (Vec3{0.1f + 0.3f, -2.75f + 0.3f, 1e-3f + 0.3f}));
  EXPECT_TRUE(b.contains(Vec3{0.25f, -2.6f, 0.1f}));
  EXPECT_FALSE(b.contains(Vec3{0.05f, -2.6f, 0.1f}));
  EXPECT_FLOAT_EQ(b.centre()[1], -2.6f);
  EXPECT_FLOAT_EQ(b.extent()[0], 0.3f);
  // data(): 9 contiguous floats per triangle in vertex order
  ASSERT_NE(m.data(), nullptr);
  EXPECT_EQ(m.data()[9 * 5 + 3 * 2 + 1], cube()[5].c[1]);
  EXPECT_EQ(m.data()[9 * 11 + 0], cube()[11].a[0]);
}

TEST_F(Stl, BinaryHeaderStartingWithSolidIsBinary) {
  // Many exporters write "solid <name>" into the binary header; the size rule
  // (84 + 50 n) decides.
  const std::string bytes = binary_stl("solid cube exported as binary", cube());
  ASSERT_EQ(bytes.substr(0, 5), "solid");
  MeshStats st;
  const Mesh m = read_stl(file("solid_header.stl", bytes), &st);
  EXPECT_EQ(st.format, MeshStats::Format::binary);
  expect_same(m.triangles, cube());
  // the same with a header that is "solid" and spaces only, the rest of the
  // file printable where possible (one triangle of small integers)
  const std::vector<Triangle> one = {{{1, 2, 3}, {4, 5, 6}, {7, 8, 9}}};
  const Mesh m1 =
      read_stl(file("solid_spaces.stl", binary_stl("solid" + std::string(75, ' '), one)));
  expect_same(m1.triangles, one);
}

TEST_F(Stl, BinaryPaddingAfterTheTrianglesIsAllowedAndCounted) {
  MeshStats st;
  const Mesh m = read_stl(file("pad.stl", binary_stl("", cube()) + std::string(7, '\0')), &st);
  expect_same(m.triangles, cube());
  EXPECT_EQ(st.trailing_bytes, 7u);
}

TEST_F(Stl, AsciiCubeReadsExactly) {
  MeshStats st;
  const Mesh m = read_stl(file("cube_ascii.stl", ascii_stl(cube(), "my cube")), &st);
  expect_same(m.triangles, cube());
  EXPECT_EQ(st.format, MeshStats::Format::ascii);
  EXPECT_EQ(st.name, "my cube");
  EXPECT_EQ(st.solids, 1u);
  EXPECT_EQ(st.triangles, 12u);
  EXPECT_EQ(st.degenerate, 0u);
}

TEST_F(Stl, AsciiWithCrlfOddWhitespaceAndUpperCase) {
  const std::string text =
      "\xEF\xBB\xBF  solid\t odd \r\n"
      "\r\n"
      "facet   normal\t0 0 -1\r\n"
      "\t\touter loop\r\n"
      "vertex 1 2 3\r\n"
      "  VERTEX\t4\t5  6   \r\n"
      "vertex 7 8\r\n 9\r\n"  // a number on the next line is still a number
      "endloop\r\n"
      "ENDFACET\r\n"
      "facet normal 0 0 0 outer loop vertex -1 -2 -3 vertex -4 -5 -6 vertex -7 -8 -9 endloop "
      "endfacet\r\n"
      "EndSolid odd\r\n\r\n";
  MeshStats st;
  const Mesh m = read_stl(file("crlf.stl", text), &st);
  expect_same(m.triangles,
              {{{1, 2, 3}, {4, 5, 6}, {7, 8, 9}}, {{-1, -2, -3}, {-4, -5, -6}, {-7, -8, -9}}});
  EXPECT_EQ(st.name, "odd");
  EXPECT_EQ(st.format, MeshStats::Format::ascii);
}

TEST_F(Stl, AsciiScientificNotationAndRangeEdges) {
  const std::string text =
      "solid sci\n"
      "facet normal 1e0 -0E-0 +0.0\n outer loop\n"
      "  vertex 1.5e-3 -2.5E+02 +7\n"
      "  vertex .5 5. -0.125e1\n"
      "  vertex 3.4028235e38 -3.4028235E+38 1e-40\n"
      " endloop\nendfacet\n"
      "facet normal nan inf -inf\n outer loop\n"  // non-finite normals are not kept
      "  vertex 1e-50 -1e-400 0.000000000000000000000000000000000000000000000000001\n"
      "  vertex 123456789 0.1 -0.1\n"
      "  vertex 16777217 1e-45 2e-45\n"
      " endloop\nendfacet\n"
      "endsolid\n";
  const Mesh m = read_stl(file("sci.stl", text));
  const float fmax = std::numeric_limits<float>::max();
  expect_same(m.triangles, {{{1.5e-3f, -250.0f, 7.0f}, {0.5f, 5.0f, -1.25f}, {fmax, -fmax, 1e-40f}},
                            {{0.0f, -0.0f, 0.0f},
                             {123456792.0f, 0.1f, -0.1f},
                             {16777216.0f, 1e-45f, 2e-45f}}});  // float rounding of the decimals
  EXPECT_TRUE(std::signbit(m.triangles[1].a[1]));               // -1e-400 is -0
}

TEST_F(Stl, AsciiSeveralSolidsAndOneLineFiles) {
  const std::vector<Triangle> a = {{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}};
  const std::vector<Triangle> b = {{{0, 0, 1}, {1, 0, 1}, {0, 1, 1}},
                                   {{2, 2, 2}, {3, 2, 2}, {2, 3, 2}}};
  MeshStats st;
  const Mesh m = read_stl(file("two.stl", ascii_stl(a, "first") + ascii_stl(b, "second")), &st);
  expect_same(m.triangles, {a[0], b[0], b[1]});
  EXPECT_EQ(st.solids, 2u);
  EXPECT_EQ(st.name, "first");
  // everything on one line, no name
  const Mesh one = read_stl(
      file("one_line.stl",
           "solid facet normal 0 0 1 outer loop vertex 0 0 0 vertex 1 0 0 vertex 0 1 0 endloop "
           "endfacet endsolid"));
  expect_same(one.triangles, a);
}

TEST_F(Stl, GzipCompressedFilesAreReadTransparently) {
  MeshStats st;
  const Mesh bin = read_stl(file("cube.stl.gz", gzip(binary_stl("solid gz", cube()))), &st);
  expect_same(bin.triangles, cube());
  EXPECT_TRUE(st.compressed);
  EXPECT_EQ(st.format, MeshStats::Format::binary);
  const Mesh text = read_stl(file("cube_ascii.stl.gz", gzip(ascii_stl(cube()))), &st);
  expect_same(text.triangles, cube());
  EXPECT_TRUE(st.compressed);
  EXPECT_EQ(st.format, MeshStats::Format::ascii);
  // the contents decide, not the name
  const Mesh named = read_stl(file("plain.stl", gzip(ascii_stl(cube()))));
  expect_same(named.triangles, cube());
}

TEST_F(Stl, DegenerateTrianglesAreKeptAndCounted) {
  const std::vector<Triangle> tris = {
      {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}},            // fine
      {{0, 0, 0}, {0, 0, 0}, {0, 1, 0}},            // two vertices equal
      {{0, 0, 0}, {1, 1, 1}, {2, 2, 2}},            // collinear
      {{5, 5, 5}, {5, 5, 5}, {5, 5, 5}},            // a point
      {{0, 0, 0}, {1e-30f, 0, 0}, {0, 1e-30f, 0}},  // tiny but not zero
  };
  for (const auto& [name, bytes] :
       {std::pair<std::string, std::string>{"deg.stl", binary_stl("", tris)},
        std::pair<std::string, std::string>{"deg_ascii.stl", ascii_stl(tris)}}) {
    MeshStats st;
    const Mesh m = read_stl(file(name, bytes), &st);
    expect_same(m.triangles, tris);
    EXPECT_EQ(st.degenerate, 3u) << name;
  }
  EXPECT_FALSE(is_degenerate(tris[0]));
  EXPECT_TRUE(is_degenerate(tris[1]));
  EXPECT_TRUE(is_degenerate(tris[2]));
  EXPECT_FALSE(is_degenerate(tris[4]));
}

TEST_F(Stl, BinaryErrorsNameTheFileAndTheProblem) {
  expect_error("empty.stl", "", {"empty file"});
  const std::string good = binary_stl("", cube());
  // the count says 12 triangles, 25 bytes of the last are missing
  expect_error("truncated.stl", good.substr(0, good.size() - 25),
               {"truncated binary STL", "12 triangles", "684 bytes", "659", "25 missing"});
  // a forged count of 2^32 - 1 triangles (214 GB) in a 134-byte file: refused
  // from the size before allocating (an allocation would throw bad_alloc,
  // which is not an Error)
  expect_error("forged_count.stl", binary_stl("", {cube()[0]}, 0xFFFFFFFFu),
               {"4294967295 triangles", "truncated"});
  // a header and count only
  expect_error("short.stl", good.substr(0, 60), {"60 bytes", "84"});
  expect_error("zero.stl", binary_stl("", {}), {"no triangles"});
  // more bytes than the count: at least a whole triangle more
  expect_error("long.stl", binary_stl("", cube(), 11), {"11 triangles", "count is wrong"});
  // a binary STL whose "solid" header made it look like ASCII, truncated
  const std::string solid = binary_stl("solid part", cube());
  expect_error("solid_truncated.stl", solid.substr(0, solid.size() - 3),
               {"binary", "truncated binary STL", "3 missing"});
  // non-finite coordinates: triangle 2 (at byte 134), vertex 3, z
  for (float bad :
       {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity()}) {
    auto tris = cube();
    tris[1].c[2] = bad;
    expect_error("nonfinite.stl", binary_stl("", tris),
                 {"triangle 2 of 12", "byte 134", "vertex 3", "z =", "finite"});
  }
  // not STL at all
  expect_error("text.stl", "hello world, this is not a mesh\n", {"not ASCII STL", "'solid'"});
}

/// The line of an ASCII file where `needle` first occurs (1-based).
long line_of(const std::string& text, const std::string& needle) {
  const auto at = text.find(needle);
  EXPECT_NE(at, std::string::npos) << needle;
  return 1 + static_cast<long>(std::count(text.begin(), text.begin() + at, '\n'));
}

TEST_F(Stl, AsciiErrorsNameTheFileLineAndWhatWasExpected) {
  const std::string good = ascii_stl(cube());
  auto replace = [&](const std::string& from, const std::string& to, std::size_t nth = 0) {
    std::string s = good;
    std::size_t at = s.find(from);
    for (std::size_t i = 0; i < nth; ++i) at = s.find(from, at + 1);
    EXPECT_NE(at, std::string::npos);
    return s.replace(at, from.size(), to);
  };
  auto check = [&](const std::string& name, const std::string& text, long line,
                   std::vector<std::string> parts) {
    parts.push_back(fmt::format("{}:{}:", (dir_ / name).string(), line));
    expect_error(name, text, parts);
  };
  {  // the third facet lacks its endloop
    const std::string t = replace("    endloop\n", "", 2);
    // the third facet: facet normal on line 16, its endfacet now on line 21
    check(
        "no_endloop.stl", t, 21,
        {"expected 'endloop' after the third vertex in the facet of line 16", "found 'endfacet'"});
  }
  {  // the first facet lacks its endfacet: the next facet comes instead
    const std::string t = replace("  endfacet\n", "");
    check("no_endfacet.stl", t, line_of(t, "facet normal") + 6,
          {"expected 'endfacet' after 'endloop'", "found 'facet'"});
  }
  {  // a facet with two vertices
    std::string t = good;
    const auto at = t.find("      vertex", t.find("      vertex") + 1);
    t.erase(at, t.find('\n', at) + 1 - at);
    check("two_vertices.stl", t, 6, {"facet of line 2 has 2 vertices, expected 3"});
  }
  {  // a facet with four vertices
    std::string t = good;
    t.insert(t.find("    endloop"), "      vertex 1 1 1\n");
    check("four_vertices.stl", t, 7,
          {"expected 'endloop' after the third vertex", "found 'vertex'"});
  }
  {  // non-numeric, non-finite and out-of-range coordinates on line 4
    const std::string first =
        good.substr(good.find("      vertex"),
                    good.find('\n', good.find("      vertex")) - good.find("      vertex"));
    for (const auto& [bad, why] : std::vector<std::pair<std::string, std::string>>{
             {"      vertex 0.1 abc 0.001", "expected a number (vertex 1 y), found 'abc'"},
             {"      vertex 0.1 1.5.2 0.001", "found '1.5.2'"},
             {"      vertex 0.1 0x10 0.001", "found '0x10'"},
             {"      vertex 0.1 -2.75 nan", "vertex 1 z is 'nan', expected a finite number"},
             {"      vertex -inf -2.75 0", "vertex 1 x is '-inf', expected a finite number"},
             {"      vertex 0.1 1e39 0", "vertex 1 y is '1e39', outside the float range"},
             {"      vertex 0.1 -2.75", "expected a number (vertex 1 z), found 'vertex'"},
         }) {
      std::string t = good;
      t.replace(t.find(first), first.size(), bad);
      check("coordinate.stl", t, bad.ends_with("-2.75") ? 5 : 4, {why});
    }
  }
  {  // the file ends inside a facet, and before endsolid
    const std::string cut = good.substr(0, good.find("    endloop"));
    check("cut.stl", cut, 6, {"expected 'endloop'", "found the end of the file"});
    const std::string no_end = good.substr(0, good.rfind("endsolid"));
    check("no_endsolid.stl", no_end, line_of(good, "endsolid") - 1,
          {"expected 'facet' or 'endsolid', found the end of the file"});
  }
  {  // other keywords misplaced or misspelt
    check("normal.stl", replace("facet normal", "facet norml"), 2,
          {"expected 'normal' after 'facet'", "found 'norml'"});
    check("loop.stl", replace("outer loop", "outer"), 4,
          {"expected 'loop' after 'outer'", "found 'vertex'"});
    check("garbage.stl", good + "extra\n", line_of(good, "endsolid") + 1,
          {"expected 'solid' or the end of the file after 'endsolid'", "found 'extra'"});
  }
  // zero triangles
  check("zero.stl", "solid empty\r\nendsolid empty\r\n", 2, {"no facets"});
}

TEST_F(Stl, OtherReadErrors) {
  try {
    read_stl(dir_ / "missing.stl");
    ADD_FAILURE() << "a missing file was read";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("missing.stl"), std::string::npos) << e.what();
  }
  // a gzip stream cut short
  const std::string gz = gzip(binary_stl("", cube()));
  expect_error("cut.stl.gz", gz.substr(0, gz.size() / 2), {"decompress"});
  EXPECT_THROW(Mesh().bounds(), Error);
}

}  // namespace
}  // namespace tessera::io
