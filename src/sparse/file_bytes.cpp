#include "sparse/file_bytes.hpp"

#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include <fmt/format.h>

#include "core/atomic_file.hpp"
#include "core/error.hpp"

namespace tessera::sparse {

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

}  // namespace

std::string read_file_bytes(const std::filesystem::path& path) {
  std::string data = read_plain(path);
  if (data.size() >= 2 && static_cast<unsigned char>(data[0]) == 0x1f &&
      static_cast<unsigned char>(data[1]) == 0x8b)
    return gunzip(path, data);
  return data;
}

std::string gzip_compress(std::string_view data) {
  z_stream zs{};
  if (deflateInit2(&zs, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    throw Error("zlib: deflateInit2 failed");
  std::string out;
  char buf[1 << 16];
  std::size_t pos = 0;
  int rc;
  do {
    const std::size_t chunk = std::min<std::size_t>(data.size() - pos, 1u << 30);
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data() + pos));
    zs.avail_in = static_cast<uInt>(chunk);
    pos += chunk;
    const int flush = pos == data.size() ? Z_FINISH : Z_NO_FLUSH;
    do {
      zs.next_out = reinterpret_cast<Bytef*>(buf);
      zs.avail_out = sizeof buf;
      rc = deflate(&zs, flush);
      out.append(buf, sizeof buf - zs.avail_out);
    } while (zs.avail_out == 0);
  } while (pos < data.size() || rc != Z_STREAM_END);
  deflateEnd(&zs);
  return out;
}

void write_file_maybe_gz(const std::filesystem::path& path, std::string_view data) {
  const std::string name = path.filename().string();
  if (name.size() > 3 && name.ends_with(".gz"))
    write_file_atomic(path, gzip_compress(data));
  else
    write_file_atomic(path, data);
}

}  // namespace tessera::sparse
