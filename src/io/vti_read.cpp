#include "io/vti_read.hpp"

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>
#include <optional>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/error.hpp"
#include "io/file_bytes.hpp"

#if TESSERA_HAVE_EXPAT
#include <expat.h>
#include <zlib.h>
#endif

namespace tessera::io {

#if !TESSERA_HAVE_EXPAT

bool vti_reading_available() { return false; }

VtiField read_vti_array(const std::filesystem::path& path, const std::string&) {
  throw Error(fmt::format(
      "{}: this tessera was built without expat (Debian: libexpat1-dev), so it reads no .vti "
      "files; give the mask as .npy (in Python: numpy.save of the array, shape (nz, ny, nx))",
      path.string()));
}

#else

bool vti_reading_available() { return true; }

namespace {

struct ArrayInfo {
  std::string name, type, format;
  bool cell_data = false;
  int components = 1;
  std::optional<std::uint64_t> offset;  // appended
  std::string text;                     // ascii, binary
};

// What the XML says before the appended data.
struct Header {
  std::string type, byte_order = "LittleEndian", header_type = "UInt32", compressor;
  std::optional<std::array<long, 6> > whole, piece;
  int pieces = 0;
  std::vector<ArrayInfo> arrays;
  // parsing state
  int section = 0;  // 0 none, 1 PointData, 2 CellData, 3 other (FieldData)
  int in_array = -1;
  int depth = 0, array_depth = -1;  // the array's own text only (not its InformationKey's)
  std::string error;
};

std::map<std::string, std::string> attributes(const XML_Char** a) {
  std::map<std::string, std::string> m;
  for (int k = 0; a[k]; k += 2) m[a[k]] = a[k + 1];
  return m;
}

std::optional<std::array<long, 6> > extent_of(const std::string& s) {
  std::array<long, 6> e{};
  const char* p = s.c_str();
  for (long& v : e) {
    char* end = nullptr;
    errno = 0;
    const long long x = std::strtoll(p, &end, 10);  // VTK allows negative extents
    if (end == p || errno != 0 || x < -(1LL << 30) || x > (1LL << 30)) return std::nullopt;
    v = long(x);
    p = end;
  }
  while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') ++p;
  if (*p) return std::nullopt;
  return e;
}

void XMLCALL on_start(void* user, const XML_Char* name, const XML_Char** atts) {
  auto& h = *static_cast<Header*>(user);
  ++h.depth;
  const std::string n = name;
  const auto a = attributes(atts);
  auto get = [&](const char* k) { return a.count(k) ? a.at(k) : std::string(); };
  if (n == "VTKFile") {
    h.type = get("type");
    if (a.count("byte_order")) h.byte_order = get("byte_order");
    if (a.count("header_type")) h.header_type = get("header_type");
    h.compressor = get("compressor");
  } else if (n == "ImageData") {
    const std::string d = get("Direction");
    if (!d.empty()) {  // VTK 9: the axes' directions, row by row
      const double id[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
      const char* p = d.c_str();
      for (double v : id) {
        char* end = nullptr;
        if (std::strtod(p, &end) != v || end == p) {
          h.error = fmt::format("Direction '{}': a rotated image (voxels along x, y, z only)", d);
          break;
        }
        p = end;
      }
    }
    h.whole = extent_of(get("WholeExtent"));
    if (!h.whole)
      h.error = fmt::format("WholeExtent '{}' is not six whole numbers", get("WholeExtent"));
  } else if (n == "Piece") {
    ++h.pieces;
    h.piece = extent_of(get("Extent"));
  } else if (n == "PointData" || n == "CellData") {
    h.section = n == "PointData" ? 1 : 2;
  } else if (n == "FieldData") {
    h.section = 3;
  } else if (n == "DataArray" && (h.section == 1 || h.section == 2)) {
    ArrayInfo info;
    info.name = get("Name");
    info.type = get("type");
    info.format = get("format");
    info.cell_data = h.section == 2;
    const std::string nc = get("NumberOfComponents");
    if (!nc.empty()) {
      char* end = nullptr;
      const long v = std::strtol(nc.c_str(), &end, 10);
      if (*end || v < 1 || v > 64)
        h.error = fmt::format("NumberOfComponents '{}' of '{}'", nc, info.name);
      info.components = int(v);
    }
    if (a.count("offset")) {
      const std::string o = get("offset");  // alive while `end` points into it
      char* end = nullptr;
      errno = 0;
      const unsigned long long v = std::strtoull(o.c_str(), &end, 10);
      if (o.empty() || *end || errno != 0 || o[0] == '-')
        h.error = fmt::format("offset '{}' of '{}'", o, info.name);
      info.offset = v;
    }
    h.arrays.push_back(std::move(info));
    h.in_array = int(h.arrays.size()) - 1;
    h.array_depth = h.depth;
  }
}

void XMLCALL on_end(void* user, const XML_Char* name) {
  auto& h = *static_cast<Header*>(user);
  const std::string n = name;
  if (h.depth == h.array_depth) h.in_array = h.array_depth = -1;
  --h.depth;
  if (n == "PointData" || n == "CellData" || n == "FieldData") h.section = 0;
}

void XMLCALL on_text(void* user, const XML_Char* s, int len) {
  auto& h = *static_cast<Header*>(user);
  if (h.in_array >= 0 && h.depth == h.array_depth)
    h.arrays[std::size_t(h.in_array)].text.append(s, std::size_t(len));
}

// Base64 (RFC 4648) of a text with whitespace removed; nullopt when it is not.
std::optional<std::string> base64_decode(std::string_view t) {
  static const auto table = [] {
    std::array<int, 256> v{};
    v.fill(-1);
    const char* abc = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (int k = 0; k < 64; ++k) v[std::size_t(std::uint8_t(abc[k]))] = k;
    return v;
  }();
  if (t.size() % 4 != 0) return std::nullopt;
  std::string out;
  out.reserve(t.size() / 4 * 3);
  for (std::size_t k = 0; k < t.size(); k += 4) {
    int v[4];
    int pad = 0;
    for (int j = 0; j < 4; ++j) {
      const char c = t[k + std::size_t(j)];
      if (c == '=' && k + 4 == t.size() && j >= 2) {
        v[j] = 0;
        ++pad;
      } else if (pad || (v[j] = table[std::size_t(std::uint8_t(c))]) < 0) {
        return std::nullopt;
      }
    }
    const std::uint32_t w = std::uint32_t(v[0]) << 18 | std::uint32_t(v[1]) << 12 |
                            std::uint32_t(v[2]) << 6 | std::uint32_t(v[3]);
    out.push_back(char(w >> 16));
    if (pad < 2) out.push_back(char(w >> 8 & 0xff));
    if (pad < 1) out.push_back(char(w & 0xff));
  }
  return out;
}

std::string without_space(std::string_view s) {
  std::string t;
  t.reserve(s.size());
  for (char c : s)
    if (c != ' ' && c != '\n' && c != '\r' && c != '\t') t.push_back(c);
  return t;
}

// Reads the binary block(s) of one array: [header][data] raw bytes (or two
// base64 streams, or one) -> the uncompressed data bytes, which must be
// `want` bytes.
class Blocks {
 public:
  Blocks(std::string where, int header_bytes, bool zlib)
      : where_(std::move(where)), h_(header_bytes), zlib_(zlib) {}

  std::uint64_t word(std::string_view b, std::size_t k) const {
    if (b.size() < (k + 1) * std::size_t(h_)) throw bad("truncated header");
    std::uint64_t v = 0;
    std::memcpy(&v, b.data() + k * std::size_t(h_), std::size_t(h_));  // little-endian host
    return v;
  }
  // how many header bytes follow from its first word
  std::uint64_t header_size(std::string_view first) const {
    if (!zlib_) return std::uint64_t(h_);
    const std::uint64_t nb = word(first, 0);
    if (nb > (1u << 24)) throw bad(fmt::format("{} compressed blocks", nb));
    return std::uint64_t(h_) * (3 + nb);
  }
  // the data bytes from the header and the payload that follows it
  std::string data(std::string_view header, std::string_view payload, std::uint64_t want) const {
    if (!zlib_) {
      const std::uint64_t n = word(header, 0);
      if (n != want)
        throw bad(fmt::format("the array holds {} bytes, the extent needs {}", n, want));
      if (payload.size() < n) throw bad("truncated data");
      return std::string(payload.substr(0, n));
    }
    const std::uint64_t nb = word(header, 0), bs = word(header, 1), last = word(header, 2);
    if (bs > (std::uint64_t(1) << 40) || last > bs) throw bad("corrupt compression header");
    const std::uint64_t total = nb == 0 ? 0 : (nb - 1) * bs + (last ? last : bs);
    if (total != want)
      throw bad(fmt::format("the array holds {} bytes, the extent needs {}", total, want));
    // the blocks must be in the file, and zlib inflates at most about 1032:1:
    // checked before the output is allocated (a forged header asks for more)
    const std::uint64_t packed = compressed_bytes(header);
    if (packed > payload.size()) throw bad("truncated compressed data");
    if (total / 1032 > packed + nb)
      throw bad(fmt::format("{} compressed bytes cannot hold {} bytes", packed, total));
    std::string out(total, '\0');
    std::uint64_t at = 0, put = 0;
    for (std::uint64_t k = 0; k < nb; ++k) {
      const std::uint64_t cs = word(header, std::size_t(3 + k));
      const std::uint64_t us = k + 1 == nb && last ? last : bs;
      if (cs > payload.size() - at) throw bad("truncated compressed data");
      uLongf got = uLongf(us);
      const int rc = uncompress(reinterpret_cast<Bytef*>(out.data() + put), &got,
                                reinterpret_cast<const Bytef*>(payload.data() + at), uLong(cs));
      if (rc != Z_OK || got != us)
        throw bad(fmt::format("compressed block {} of {} is corrupt (zlib {})", k + 1, nb, rc));
      at += cs;
      put += us;
    }
    return out;
  }
  // inline or appended base64: the header and the data as two streams (VTK)
  // or one
  std::string data_base64(std::string_view text, std::uint64_t want) const {
    const auto first = base64_decode(text.substr(0, std::min<std::size_t>(text.size(), 12)));
    if (!first || first->size() < std::size_t(h_)) throw bad("the base64 header is not base64");
    const std::uint64_t hb = header_size(*first);
    const std::size_t hchars = std::size_t((hb + 2) / 3 * 4);
    if (hchars > text.size()) throw bad("truncated header");
    const bool separate = hb % 3 == 0 || text[hchars - 1] == '=';
    if (separate) {
      const auto header = base64_decode(text.substr(0, hchars));
      if (!header) throw bad("the header is not base64");
      const std::size_t dchars = std::size_t(zlib_ ? (compressed_bytes(*header) + 2) / 3 * 4
                                                   : (word(*header, 0) + 2) / 3 * 4);
      if (dchars > text.size() - hchars) throw bad("truncated data");
      const auto payload = base64_decode(text.substr(hchars, dchars));
      if (!payload) throw bad("the data are not base64");
      return data(*header, *payload, want);
    }
    // one stream: the header's chunk also holds the first data bytes
    const auto head = base64_decode(text.substr(0, hchars));
    if (!head) throw bad("the header is not base64");
    const std::uint64_t payload = zlib_ ? compressed_bytes(*head) : word(*head, 0);
    const std::size_t chars = std::size_t((hb + payload + 2) / 3 * 4);
    if (payload > text.size() || chars > text.size()) throw bad("truncated data");
    const auto all = base64_decode(text.substr(0, chars));
    if (!all) throw bad("the data are not base64");
    return data(std::string_view(*all).substr(0, std::size_t(hb)),
                std::string_view(*all).substr(std::size_t(hb)), want);
  }
  std::uint64_t compressed_bytes(std::string_view header) const {
    std::uint64_t s = 0;
    const std::uint64_t nb = word(header, 0);
    for (std::uint64_t k = 0; k < nb; ++k) {
      const std::uint64_t c = word(header, std::size_t(3 + k));
      if (c > (std::uint64_t(1) << 40)) throw bad("corrupt compression header");
      s += c;  // at most 2^24 blocks of 2^40: no wrap
    }
    return s;
  }
  Error bad(const std::string& what) const { return Error(fmt::format("{}: {}", where_, what)); }

 private:
  std::string where_;
  int h_;
  bool zlib_;
};

int type_size(const std::string& t) {
  static const std::map<std::string, int> sizes = {
      {"Int8", 1},   {"UInt8", 1}, {"Int16", 2},  {"UInt16", 2},  {"Int32", 4},
      {"UInt32", 4}, {"Int64", 8}, {"UInt64", 8}, {"Float32", 4}, {"Float64", 8}};
  const auto it = sizes.find(t);
  return it == sizes.end() ? 0 : it->second;
}

double value_at(const std::string& t, const char* p) {
  auto get = [&](auto v) {
    std::memcpy(&v, p, sizeof v);
    return double(v);
  };
  if (t == "Int8") return get(std::int8_t{});
  if (t == "UInt8") return get(std::uint8_t{});
  if (t == "Int16") return get(std::int16_t{});
  if (t == "UInt16") return get(std::uint16_t{});
  if (t == "Int32") return get(std::int32_t{});
  if (t == "UInt32") return get(std::uint32_t{});
  if (t == "Int64") return get(std::int64_t{});
  if (t == "UInt64") return get(std::uint64_t{});
  if (t == "Float32") return get(float{});
  return get(double{});
}

}  // namespace

namespace {
VtiField read_array(const std::filesystem::path& path, const std::string& name);
}

VtiField read_vti_array(const std::filesystem::path& path, const std::string& name) {
  try {
    return read_array(path, name);
  } catch (const std::bad_alloc&) {
    throw Error(fmt::format("{}: out of host memory while decoding it", path.string()));
  }
}

namespace {
VtiField read_array(const std::filesystem::path& path, const std::string& name) {
  const std::string file = path.string();
  const std::string bytes = read_file_bytes(path);
  // the XML before the appended data (whose raw bytes are no XML)
  const std::size_t appended = bytes.find("<AppendedData");
  const std::string_view xml =
      std::string_view(bytes).substr(0, appended == std::string::npos ? bytes.size() : appended);
  Header h;
  XML_Parser parser = XML_ParserCreate(nullptr);
  if (!parser) throw Error(file + ": out of memory for the XML parser");
  XML_SetUserData(parser, &h);
  XML_SetElementHandler(parser, on_start, on_end);
  XML_SetCharacterDataHandler(parser, on_text);
  const bool done = appended == std::string::npos;
  const auto status = XML_Parse(
      parser, xml.data(), int(std::min<std::size_t>(xml.size(), std::numeric_limits<int>::max())),
      done ? XML_TRUE : XML_FALSE);
  if (status != XML_STATUS_OK) {
    const std::string why = XML_ErrorString(XML_GetErrorCode(parser));
    const auto line = XML_GetCurrentLineNumber(parser);
    XML_ParserFree(parser);
    throw Error(fmt::format("{}:{}: not a VTK XML file: {}", file, line, why));
  }
  XML_ParserFree(parser);
  if (!h.error.empty()) throw Error(file + ": " + h.error);
  if (h.type != "ImageData")
    throw Error(fmt::format("{}: a VTK file of type '{}', not ImageData (.vti)", file,
                            h.type.empty() ? "(none)" : h.type));
  if (h.byte_order != "LittleEndian")
    throw Error(fmt::format("{}: byte_order {} (only LittleEndian is read)", file, h.byte_order));
  if (h.header_type != "UInt32" && h.header_type != "UInt64")
    throw Error(fmt::format("{}: header_type {} (UInt32 or UInt64)", file, h.header_type));
  const bool zlib = h.compressor == "vtkZLibDataCompressor";
  if (!h.compressor.empty() && !zlib)
    throw Error(
        fmt::format("{}: compressor {} (none or vtkZLibDataCompressor: save the file "
                    "from ParaView with ZLib compression or none)",
                    file, h.compressor));
  if (!h.whole) throw Error(file + ": no ImageData WholeExtent");
  if (h.pieces != 1)
    throw Error(fmt::format("{}: {} pieces (one is read: merge them in ParaView)", file, h.pieces));
  if (h.piece != h.whole) throw Error(file + ": the piece's Extent is not the WholeExtent");

  const ArrayInfo* a = nullptr;
  std::vector<std::string> names;
  for (const auto& x : h.arrays) names.push_back(x.name);
  if (name.empty()) {
    for (const auto& x : h.arrays)
      if (x.name == "solid") a = &x;
    if (h.arrays.size() == 1) a = &h.arrays[0];
    if (!a)
      throw Error(fmt::format("{}: {} arrays ({}): name the one to read", file, h.arrays.size(),
                              fmt::join(names, ", ")));
  } else {
    for (const auto& x : h.arrays)
      if (x.name == name) a = &x;
    if (!a)
      throw Error(fmt::format(
          "{}: no array '{}' (the file has: {})", file, name,
          names.empty() ? std::string("none") : fmt::format("{}", fmt::join(names, ", "))));
  }
  const std::string where = fmt::format("{}: array '{}'", file, a->name);
  VtiField out;
  out.name = a->name;
  out.cell_data = a->cell_data;
  out.components = a->components;
  out.type = a->type;
  const auto& e = *h.whole;
  constexpr std::uint64_t kMaxValues = std::uint64_t(1) << 40;
  std::uint64_t count = std::uint64_t(a->components);
  for (int k = 0; k < 3; ++k) {
    const long n = e[std::size_t(2 * k + 1)] - e[std::size_t(2 * k)];
    if (n < 0) throw Error(file + ": WholeExtent has an upper end below its lower end");
    out.dims[std::size_t(k)] = a->cell_data ? std::max(n, 1L) : n + 1;
    const auto d = std::uint64_t(out.dims[std::size_t(k)]);
    if (count > kMaxValues / d) throw Error(where + ": more than 2^40 values");  // before it wraps
    count *= d;
  }
  const int size = type_size(a->type);
  if (size == 0)
    throw Error(fmt::format("{}: type '{}' (Int8..UInt64, Float32, Float64)", where, a->type));
  const std::uint64_t want = count * std::uint64_t(size);
  // zlib inflates at most about 1032:1: more than that cannot be in the file
  // (refused before allocating what a forged extent asks for)
  if (want / 1100 > bytes.size())
    throw Error(fmt::format("{}: the extent needs {} bytes, more than the {}-byte file can hold",
                            where, want, bytes.size()));

  if (a->format == "ascii") {
    out.values.reserve(std::size_t(std::min<std::uint64_t>(count, a->text.size())));
    const char* p = a->text.c_str();
    while (true) {
      while (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t') ++p;
      if (!*p) break;
      char* end = nullptr;
      const double v = std::strtod(p, &end);
      if (end == p)
        throw Error(fmt::format("{}: value {} is not a number", where, out.values.size() + 1));
      if (out.values.size() == count)
        throw Error(fmt::format("{}: more than the {} values of the extent", where, count));
      out.values.push_back(v);
      p = end;
    }
    if (out.values.size() != count)
      throw Error(
          fmt::format("{}: {} values, the extent needs {}", where, out.values.size(), count));
    return out;
  }
  const Blocks blocks(where, h.header_type == "UInt64" ? 8 : 4, zlib);
  std::string data;
  if (a->format == "binary") {
    data = blocks.data_base64(without_space(a->text), want);
  } else if (a->format == "appended") {
    if (appended == std::string::npos || !a->offset)
      throw Error(where + ": appended, but the file has no AppendedData (or no offset)");
    const std::size_t tag_end = bytes.find('>', appended);
    const std::size_t mark = tag_end == std::string::npos ? tag_end : bytes.find('_', tag_end);
    if (mark == std::string::npos) throw Error(file + ": AppendedData without its '_' marker");
    const std::string tag = bytes.substr(appended, tag_end - appended);
    const bool base64 = tag.find("encoding=\"base64\"") != std::string::npos;
    if (!base64 && tag.find("encoding=\"raw\"") == std::string::npos)
      throw Error(file + ": AppendedData encoding is neither raw nor base64");
    const std::string_view rest = std::string_view(bytes).substr(mark + 1);
    if (*a->offset > rest.size()) throw Error(where + ": offset beyond the end of the file");
    const std::string_view from = rest.substr(std::size_t(*a->offset));
    if (base64) {
      const std::size_t stop = from.find('<');
      data = blocks.data_base64(without_space(from.substr(0, stop)), want);
    } else {
      const std::uint64_t hb = blocks.header_size(from);
      if (hb > from.size()) throw Error(where + ": truncated header");
      data = blocks.data(from.substr(0, std::size_t(hb)), from.substr(std::size_t(hb)), want);
    }
  } else {
    throw Error(fmt::format("{}: format '{}' (ascii, binary or appended)", where, a->format));
  }
  out.values.resize(std::size_t(count));
  for (std::uint64_t k = 0; k < count; ++k)
    out.values[std::size_t(k)] = value_at(a->type, data.data() + k * std::uint64_t(size));
  return out;
}

}  // namespace

#endif

}  // namespace tessera::io
