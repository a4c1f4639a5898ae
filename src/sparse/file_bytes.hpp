// Whole-file reading with transparent gzip, and gzip compression for writers.
// Matrix Market files are parsed from memory (the parser works on chunks in
// parallel), so a file is read or decompressed in one go.
#pragma once
#include <filesystem>
#include <string>
#include <string_view>

namespace tessera::sparse {

/// The bytes of `path`; gzip data (recognised by its magic bytes, whatever the
/// file is called) is decompressed. Throws Error naming the file and the reason
/// (missing, unreadable, corrupt or truncated gzip stream).
std::string read_file_bytes(const std::filesystem::path& path);

/// `data` as a gzip stream (RFC 1952, zlib's default level).
std::string gzip_compress(std::string_view data);

/// Writes `data` atomically (write_file_atomic), gzip-compressed when the file
/// name ends in ".gz".
void write_file_maybe_gz(const std::filesystem::path& path, std::string_view data);

}  // namespace tessera::sparse
