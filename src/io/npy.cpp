#include "io/npy.hpp"

#include <cctype>
#include <cstring>
#include <fstream>
#include <sstream>

#include "core/atomic_file.hpp"
#include "core/error.hpp"

namespace tessera::io {

namespace {

[[noreturn]] void bad(const std::filesystem::path& p, const std::string& why) {
  throw Error(p.string() + ": not a usable .npy file: " + why);
}

// The value of 'key' in the header dict: a quoted string, True/False or a
// parenthesised tuple. A hand scanner, not std::regex: libstdc++'s regex
// recurses per character and overflowed the stack on a 1 MiB header (found by
// tests/fuzz/fuzz_npy.cpp).
std::string header_value(const std::string& header, const std::string& key) {
  const std::string quoted = "'" + key + "'";
  for (std::size_t at = header.find(quoted); at != std::string::npos;
       at = header.find(quoted, at + 1)) {
    std::size_t p = at + quoted.size();
    auto skip_space = [&] {
      while (p < header.size() && std::isspace(static_cast<unsigned char>(header[p]))) ++p;
    };
    skip_space();
    if (p >= header.size() || header[p] != ':') continue;
    ++p;
    skip_space();
    if (p >= header.size()) continue;
    const char open = header[p];
    if (open == '\'' || open == '(') {
      const std::size_t close = header.find(open == '(' ? ')' : '\'', p + 1);
      if (close == std::string::npos) continue;
      return header.substr(p, close - p + 1);
    }
    for (const char* word : {"True", "False"})
      if (header.compare(p, std::strlen(word), word) == 0) return word;
  }
  return {};
}

}  // namespace

NpyArray read_npy(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("cannot open '" + path.string() + "': " + std::strerror(errno));
  char magic[8] = {};
  if (!in.read(magic, 8) || std::memcmp(magic, "\x93NUMPY", 6) != 0)
    bad(path, "missing \\x93NUMPY magic");
  const int major = static_cast<unsigned char>(magic[6]);
  std::uint32_t hlen = 0;
  if (major == 1) {
    unsigned char b[2];
    if (!in.read(reinterpret_cast<char*>(b), 2)) bad(path, "truncated header length");
    hlen = b[0] | (b[1] << 8);
  } else if (major == 2 || major == 3) {
    unsigned char b[4];
    if (!in.read(reinterpret_cast<char*>(b), 4)) bad(path, "truncated header length");
    hlen = b[0] | (b[1] << 8) | (b[2] << 16) | (std::uint32_t(b[3]) << 24);
  } else {
    bad(path, "format version " + std::to_string(major) + " (supported: 1, 2, 3)");
  }
  if (hlen > (1u << 20)) bad(path, "header of " + std::to_string(hlen) + " bytes");
  std::string header(hlen, '\0');
  if (!in.read(header.data(), hlen)) bad(path, "truncated header");
  NpyArray a;
  a.dtype = header_value(header, "descr");
  if (a.dtype != "'<f4'" && a.dtype != "'<f8'" && a.dtype != "'|b1'" && a.dtype != "'|u1'" &&
      a.dtype != "'|i1'")
    bad(path, "dtype " + (a.dtype.empty() ? std::string("missing") : a.dtype) +
                  " (supported: '<f4', '<f8', '|b1', '|u1', '|i1')");
  a.dtype = a.dtype.substr(1, 3);
  if (header_value(header, "fortran_order") != "False") bad(path, "Fortran order is not supported");
  std::string shape = header_value(header, "shape");
  if (shape.empty()) bad(path, "no shape in header");
  std::int64_t count = 1;
  std::stringstream ss(shape.substr(1, shape.size() - 2));
  for (std::string tok; std::getline(ss, tok, ',');) {
    if (tok.find_first_not_of(" ") == std::string::npos) continue;
    std::int64_t v = 0;
    try {
      v = std::stoll(tok);
    } catch (const std::exception&) {
      bad(path, "shape entry '" + tok + "'");
    }
    if (v < 0 || (v > 0 && count > (std::int64_t(1) << 40) / v))
      bad(path, "shape too large or negative");
    a.shape.push_back(v);
    count *= v;
  }
  const std::size_t width = a.dtype == "<f8" ? 8 : a.dtype == "<f4" ? 4 : 1;
  // Compare with what the file holds before allocating: a forged shape must
  // not ask for terabytes.
  const auto data_start = in.tellg();
  in.seekg(0, std::ios::end);
  const auto file_end = in.tellg();
  in.seekg(data_start);
  if (data_start < 0 || file_end < data_start ||
      static_cast<std::uint64_t>(file_end - data_start) < static_cast<std::uint64_t>(count) * width)
    bad(path, "data truncated (expected " + std::to_string(count) + " values)");
  std::vector<char> raw(static_cast<std::size_t>(count) * width);
  if (!in.read(raw.data(), static_cast<std::streamsize>(raw.size())))
    bad(path, "data truncated (expected " + std::to_string(count) + " values)");
  a.data.resize(static_cast<std::size_t>(count));
  const char kind = a.dtype[1];  // f (float), b (bool), u (uint8), i (int8)
  for (std::size_t i = 0; i < a.data.size(); ++i) {
    if (kind == 'b') {
      const auto b = static_cast<unsigned char>(raw[i]);
      if (b > 1)
        bad(path, "boolean value " + std::to_string(b) + " at element " + std::to_string(i) +
                      " (NumPy stores bool as 0 or 1)");
      a.data[i] = b;
    } else if (kind == 'u') {
      a.data[i] = static_cast<unsigned char>(raw[i]);
    } else if (kind == 'i') {
      a.data[i] = static_cast<signed char>(raw[i]);
    } else if (width == 4) {
      float f;
      std::memcpy(&f, raw.data() + i * 4, 4);
      a.data[i] = f;
    } else {
      std::memcpy(&a.data[i], raw.data() + i * 8, 8);
    }
  }
  return a;
}

template <class T>
void write_npy(const std::filesystem::path& path, const std::vector<std::int64_t>& shape,
               const std::vector<T>& data) {
  std::string dims;
  for (auto s : shape) dims += std::to_string(s) + ", ";
  if (shape.size() > 1)
    dims.erase(dims.size() - 2);
  else if (shape.size() == 1)
    dims.pop_back();
  std::string header = std::string("{'descr': '") + (sizeof(T) == 4 ? "<f4" : "<f8") +
                       "', 'fortran_order': False, 'shape': (" + dims + "), }";
  const std::size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::string out("\x93NUMPY\x01\x00", 8);
  out += static_cast<char>(header.size() & 0xff);
  out += static_cast<char>(header.size() >> 8);
  out += header;
  out.append(reinterpret_cast<const char*>(data.data()), data.size() * sizeof(T));
  write_file_atomic(path, out);
}

template void write_npy<float>(const std::filesystem::path&, const std::vector<std::int64_t>&,
                               const std::vector<float>&);
template void write_npy<double>(const std::filesystem::path&, const std::vector<std::int64_t>&,
                                const std::vector<double>&);

}  // namespace tessera::io
