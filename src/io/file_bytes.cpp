#include "io/file_bytes.hpp"

#include <zlib.h>
#if defined(TESSERA_HAVE_BZIP2)
#include <bzlib.h>
#endif

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include <fmt/format.h>

#include "core/atomic_file.hpp"
#include "core/error.hpp"

namespace tessera::io {

namespace {

std::string read_plain(const std::filesystem::path& path) {
  std::unique_ptr<FILE, int (*)(FILE*)> f(std::fopen(path.c_str(), "rb"), std::fclose);
  if (!f) throw Error(fmt::format("cannot open '{}': {}", path.string(), std::strerror(errno)));
  std::string data;
  char buf[1 << 16];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f.get())) > 0) data.append(buf, n);
  if (std::ferror(f.get()))
    throw Error(fmt::format("cannot read '{}': {}", path.string(), std::strerror(errno)));
  return data;
}

/// Inflates gzip members (concatenated members included, as gzip(1) allows).
std::string gunzip(const std::filesystem::path& path, const std::string& in) {
  z_stream zs{};
  if (inflateInit2(&zs, 15 + 32) != Z_OK) throw Error("zlib: inflateInit2 failed");
  std::string out;
  out.reserve(in.size() * 4);
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  std::size_t left = in.size();
  char buf[1 << 16];
  int rc = Z_OK;
  for (;;) {
    if (zs.avail_in == 0 && left > 0) {
      zs.avail_in = static_cast<uInt>(std::min<std::size_t>(left, 1u << 30));
      left -= zs.avail_in;
    }
    zs.next_out = reinterpret_cast<Bytef*>(buf);
    zs.avail_out = sizeof buf;
    rc = inflate(&zs, Z_NO_FLUSH);
    out.append(buf, sizeof buf - zs.avail_out);
    if (rc == Z_STREAM_END) {
      if (zs.avail_in == 0 && left == 0) break;
      inflateReset(&zs);  // another gzip member follows
      continue;
    }
    if (rc != Z_OK && rc != Z_BUF_ERROR) break;
    if (rc == Z_BUF_ERROR && zs.avail_in == 0 && left == 0) break;  // input ended mid-stream
  }
  const char* msg = zs.msg;
  inflateEnd(&zs);
  if (rc != Z_STREAM_END)
    throw Error(fmt::format("cannot decompress '{}': {}", path.string(),
                            msg ? msg : "the gzip stream is truncated (unexpected end of file)"));
  return out;
}

bool starts_with(const std::string& data, std::string_view magic) {
  return data.size() >= magic.size() && std::string_view(data).substr(0, magic.size()) == magic;
}

bool is_bzip2(const std::string& data) {
  return starts_with(data, "BZh") && data.size() >= 4 && data[3] >= '1' && data[3] <= '9';
}

[[noreturn]] void unsupported(const std::filesystem::path& path, std::string_view kind,
                              std::string_view note = {}) {
  throw Error(fmt::format("{}: {} files are not supported{} (use .gz or uncompressed)",
                          path.string(), kind, note));
}

#if defined(TESSERA_HAVE_BZIP2)
/// Decompresses bzip2 streams (concatenated streams included, as bzip2(1) writes
/// for parallel compressors).
std::string bunzip2(const std::filesystem::path& path, const std::string& in) {
  std::string out;
  std::size_t pos = 0;
  char buf[1 << 16];
  while (pos < in.size()) {
    bz_stream bz{};
    if (BZ2_bzDecompressInit(&bz, 0, 0) != BZ_OK)
      throw Error("libbz2: BZ2_bzDecompressInit failed");
    int rc = BZ_OK;
    std::size_t left = in.size() - pos;
    bz.next_in = const_cast<char*>(in.data() + pos);
    bz.avail_in = 0;
    for (;;) {
      if (bz.avail_in == 0 && left > 0) {
        bz.avail_in = static_cast<unsigned>(std::min<std::size_t>(left, 1u << 30));
        left -= bz.avail_in;
      }
      bz.next_out = buf;
      bz.avail_out = sizeof buf;
      rc = BZ2_bzDecompress(&bz);
      out.append(buf, sizeof buf - bz.avail_out);
      if (rc != BZ_OK) break;
      if (bz.avail_in == 0 && left == 0 && bz.avail_out != 0) break;  // input ended mid-stream
    }
    const std::size_t consumed = in.size() - pos - left - bz.avail_in;
    BZ2_bzDecompressEnd(&bz);
    if (rc != BZ_STREAM_END)
      throw Error(fmt::format("cannot decompress '{}': {}", path.string(),
                              rc == BZ_OK ? "the bzip2 stream is truncated (unexpected end of file)"
                              : rc == BZ_DATA_ERROR_MAGIC ? "not a bzip2 stream"
                              : rc == BZ_MEM_ERROR        ? "out of memory"
                                                          : "the bzip2 data is corrupt"));
    pos += consumed;
    if (pos < in.size() && !is_bzip2(in.substr(pos, 4)))
      throw Error(
          fmt::format("cannot decompress '{}': {} bytes of trailing garbage after the bzip2 stream",
                      path.string(), in.size() - pos));
  }
  return out;
}
#endif

using namespace std::string_view_literals;

/// Magic bytes of compressed or binary formats that are not read (bzip2 is
/// handled apart).
struct Magic {
  std::string_view bytes, kind;
};
constexpr std::array<Magic, 10> kForeign{{
    {"\xFD"
     "7zXZ\x00"sv,
     "xz-compressed"},
    {"\x28\xB5\x2F\xFD"sv, "zstd-compressed"},
    {"PK\x03\x04"sv, "zip archive"},
    {"PK\x05\x06"sv, "zip archive"},
    {"7z\xBC\xAF\x27\x1C"sv, "7z archive"},
    {"\x04\x22\x4D\x18"sv, "lz4-compressed"},
    {"\x1F\x9D"sv, "compress(1)-compressed"},
    {"\x89HDF\r\n\x1A\n"sv, "HDF5 (binary)"},
    {"\x89PNG\r\n\x1A\n"sv, "PNG image (binary)"},
    {"]\x00\x00"sv, "lzma-compressed"},
}};

/// Compression suffixes and what they are (for output names).
struct Suffix {
  std::string_view ext, kind;
};
constexpr std::array<Suffix, 9> kSuffixes{{
    {".xz", "xz-compressed"},
    {".zst", "zstd-compressed"},
    {".zstd", "zstd-compressed"},
    {".zip", "zip archive"},
    {".7z", "7z archive"},
    {".lz4", "lz4-compressed"},
    {".lzma", "lzma-compressed"},
    {".Z", "compress(1)-compressed"},
    {".bz2", "bzip2-compressed"},
}};

/// Hands data to step(in, n, last) in pieces of at most 1 GiB (zlib and libbz2
/// count input in 32-bit unsigned ints), at least once, last set on the final
/// piece.
template <class Step>
void for_each_chunk(std::string_view data, Step step) {
  std::size_t pos = 0;
  do {
    const std::size_t chunk = std::min<std::size_t>(data.size() - pos, 1u << 30);
    const char* in = data.data() + pos;
    pos += chunk;
    step(in, chunk, pos == data.size());
  } while (pos < data.size());
}
}  // namespace

bool bzip2_supported() {
#if defined(TESSERA_HAVE_BZIP2)
  return true;
#else
  return false;
#endif
}

std::string read_file_bytes(const std::filesystem::path& path, ForeignData foreign) {
  std::string data = read_plain(path);
  if (data.size() >= 2 && static_cast<unsigned char>(data[0]) == 0x1f &&
      static_cast<unsigned char>(data[1]) == 0x8b)
    return gunzip(path, data);
  if (is_bzip2(data)) {
#if defined(TESSERA_HAVE_BZIP2)
    return bunzip2(path, data);
#else
    unsupported(path, "bzip2-compressed", " by this build (no libbz2)");
#endif
  }
  if (foreign == ForeignData::keep) return data;
  for (const Magic& m : kForeign) {
    if (!starts_with(data, m.bytes)) continue;
    if (m.kind.ends_with("compressed")) unsupported(path, m.kind);
    throw Error(
        fmt::format("{}: {} data, not a text file (use a Matrix Market text file, .gz or "
                    "uncompressed)",
                    path.string(), m.kind));
  }
  return data;
}

std::string output_compression(const std::filesystem::path& path) {
  const std::string name = path.filename().string();
  if (name.size() > 3 && name.ends_with(".gz")) return "gzip";
  for (const Suffix& s : kSuffixes) {
    if (name.size() <= s.ext.size() || !name.ends_with(s.ext)) continue;
    if (s.ext == ".bz2" && bzip2_supported()) return "bzip2";
    unsupported(path, s.kind, s.ext == ".bz2" ? " by this build (no libbz2)" : "");
  }
  return "";
}

std::string bzip2_compress(std::string_view data) {
#if defined(TESSERA_HAVE_BZIP2)
  bz_stream bz{};
  if (BZ2_bzCompressInit(&bz, 9, 0, 0) != BZ_OK) throw Error("libbz2: BZ2_bzCompressInit failed");
  std::string out;
  char buf[1 << 16];
  for_each_chunk(data, [&](const char* in, std::size_t n, bool last) {
    bz.next_in = const_cast<char*>(in);
    bz.avail_in = static_cast<unsigned>(n);
    const int action = last ? BZ_FINISH : BZ_RUN;
    int rc;
    do {
      bz.next_out = buf;
      bz.avail_out = sizeof buf;
      rc = BZ2_bzCompress(&bz, action);
      if (rc < 0) {
        BZ2_bzCompressEnd(&bz);
        throw Error(fmt::format("libbz2: compression failed (code {})", rc));
      }
      out.append(buf, sizeof buf - bz.avail_out);
    } while (last ? rc != BZ_STREAM_END : bz.avail_in > 0);
  });
  BZ2_bzCompressEnd(&bz);
  return out;
#else
  (void)data;
  throw Error(
      "bzip2-compressed files are not supported by this build (no libbz2; use .gz or uncompressed)");
#endif
}

std::string gzip_compress(std::string_view data) {
  z_stream zs{};
  if (deflateInit2(&zs, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    throw Error("zlib: deflateInit2 failed");
  std::string out;
  char buf[1 << 16];
  for_each_chunk(data, [&](const char* in, std::size_t n, bool last) {
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in));
    zs.avail_in = static_cast<uInt>(n);
    const int flush = last ? Z_FINISH : Z_NO_FLUSH;
    int rc;
    do {
      zs.next_out = reinterpret_cast<Bytef*>(buf);
      zs.avail_out = sizeof buf;
      rc = deflate(&zs, flush);
      out.append(buf, sizeof buf - zs.avail_out);
    } while (zs.avail_out == 0 || (last && rc != Z_STREAM_END));
  });
  deflateEnd(&zs);
  return out;
}

void write_file_maybe_gz(const std::filesystem::path& path, std::string_view data) {
  const std::string how = output_compression(path);
  if (how == "gzip")
    write_file_atomic(path, gzip_compress(data));
  else if (how == "bzip2")
    write_file_atomic(path, bzip2_compress(data));
  else
    write_file_atomic(path, data);
}

}  // namespace tessera::io
