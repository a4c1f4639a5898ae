// Whole-file reading with transparent gzip (and bzip2), and compression for
// writers. Matrix Market and STL files are parsed from memory (the Matrix
// Market parser works on chunks in parallel), so a file is read or
// decompressed in one go.
#pragma once
#include <filesystem>
#include <string>
#include <string_view>

namespace tessera::io {

/// What read_file_bytes does with data whose first bytes are the magic of a
/// format it does not decompress (xz, zstd, zip, 7z, lz4, lzma, compress, HDF5,
/// PNG).
enum class ForeignData {
  refuse,  ///< throw Error naming the format (text formats: Matrix Market)
  keep,    ///< return the bytes as they are (binary formats whose first bytes
           ///< are free, such as the 80-byte header of a binary STL file)
};

/// The bytes of `path`; gzip and bzip2 data (recognised by their magic bytes,
/// whatever the file is called) are decompressed. Throws Error naming the file
/// and the reason (missing, unreadable, corrupt or truncated stream; bzip2 in a
/// build without libbz2). With ForeignData::refuse (the default), other
/// compressed or binary data recognised by its magic bytes is refused by name:
/// "<file>: xz-compressed files are not supported (use .gz or uncompressed)",
/// never shown as raw bytes.
std::string read_file_bytes(const std::filesystem::path& path,
                            ForeignData foreign = ForeignData::refuse);

/// Whether this build reads and writes .bz2 (libbz2 found at configure time).
bool bzip2_supported();

/// The compression a file name asks for on output: "gzip" (.gz), "bzip2"
/// (.bz2, where supported) or "" (none). A name ending in a compression suffix
/// that is not supported (.xz, .zst, .zip, .7z, .lz4, .lzma, .Z; .bz2 without
/// libbz2) throws Error("<file>: xz-compressed files are not supported (use .gz
/// or uncompressed)"): writers call it before any work or write.
std::string output_compression(const std::filesystem::path& path);

/// `data` as a bzip2 stream (level 9); Error where bzip2 is not supported.
std::string bzip2_compress(std::string_view data);

/// `data` as a gzip stream (RFC 1952, zlib's default level).
std::string gzip_compress(std::string_view data);

/// Writes `data` atomically (write_file_atomic), gzip-compressed when the file
/// name ends in ".gz", bzip2-compressed when it ends in ".bz2"; other
/// compression suffixes are refused before anything is written
/// (output_compression).
void write_file_maybe_gz(const std::filesystem::path& path, std::string_view data);

}  // namespace tessera::io
