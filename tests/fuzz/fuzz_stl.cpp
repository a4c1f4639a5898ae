// STL reader (the surfaces of `tessera lbm` bodies): binary and ASCII, gzip
// through read_file_bytes. Anything accepted must hold finite coordinates and
// consistent statistics, and read back bit for bit when written again as
// binary STL and as ASCII STL (shortest round-trip decimals).
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>

#include <fmt/format.h>

#include "core/error.hpp"
#include "fuzz_support.hpp"
#include "io/stl.hpp"

namespace {

using tessera::io::Mesh;
using tessera::io::Triangle;
using tessera::io::Vec3;

void put_u32(std::string& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out += static_cast<char>((v >> (8 * i)) & 0xff);
}

std::string as_binary(const Mesh& m) {
  std::string out(80, '\0');
  put_u32(out, static_cast<std::uint32_t>(m.size()));
  for (const Triangle& t : m.triangles) {
    out.append(12, '\0');
    for (const Vec3* v : {&t.a, &t.b, &t.c})
      for (float x : *v) {
        std::uint32_t bits;
        std::memcpy(&bits, &x, 4);
        put_u32(out, bits);
      }
    out.append(2, '\0');
  }
  return out;
}

std::string as_ascii(const Mesh& m) {
  std::string s = "solid again\n";
  for (const Triangle& t : m.triangles) {
    s += "facet normal 0 0 0\nouter loop\n";
    for (const Vec3* v : {&t.a, &t.b, &t.c})
      s += fmt::format("vertex {} {} {}\n", (*v)[0], (*v)[1], (*v)[2]);
    s += "endloop\nendfacet\n";
  }
  return s + "endsolid again\n";
}

bool same_bits(const Mesh& a, const Mesh& b) {
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(Triangle)) == 0);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const auto file = tessera::fuzz::scratch_file(".stl");
  tessera::fuzz::put_file(file, data, size);
  try {
    tessera::io::MeshStats st;
    const Mesh m = tessera::io::read_stl(file, &st);
    if (m.empty() || st.triangles != m.size() || st.degenerate > m.size() ||
        st.trailing_bytes >= 50 || st.solids == 0)
      __builtin_trap();
    std::size_t degenerate = 0;
    const auto box = m.bounds();
    for (const Triangle& t : m.triangles) {
      degenerate += tessera::io::is_degenerate(t);
      for (const Vec3* v : {&t.a, &t.b, &t.c}) {
        for (float x : *v)
          if (!std::isfinite(x)) __builtin_trap();
        if (!box.contains(*v)) __builtin_trap();
      }
    }
    if (degenerate != st.degenerate) __builtin_trap();
    tessera::io::MeshStats again;
    if (!same_bits(m, tessera::io::parse_stl(as_binary(m), "binary again", &again)) ||
        again.format != tessera::io::MeshStats::Format::binary)
      __builtin_trap();
    if (!same_bits(m, tessera::io::parse_stl(as_ascii(m), "ascii again", &again)) ||
        again.format != tessera::io::MeshStats::Format::ascii)
      __builtin_trap();
  } catch (const tessera::Error&) {
  }
  return 0;
}
