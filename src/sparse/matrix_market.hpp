// Matrix Market I/O (math.nist.gov/MatrixMarket/formats.html).
//
// Reading accepts: objects `matrix` and `vector`; formats `coordinate` and
// `array`; fields real, double (= real), integer, complex, pattern; symmetries
// general, symmetric, skew-symmetric, hermitian. Symmetric files are expanded
// (the diagonal once); skew-symmetric mirrors with the sign flipped, hermitian
// with the conjugate. Comment lines (%) and blank lines may appear anywhere
// after the banner; Windows line endings are fine; gzip data is decompressed
// whatever the file is called. Coordinate entries are returned in file order,
// duplicates included (to_csr sums them); array files keep every entry,
// zeros included.
//
// Strict where the format is strict; every violation throws Error whose
// message is "<file>:<line>: <reason>":
//  - the banner must be exactly `%%MatrixMarket` followed by four known words
//    (case-insensitive); unknown or missing words, combinations the format
//    forbids (pattern+array, hermitian without complex, skew-symmetric
//    pattern, a non-square symmetric matrix, a symmetric vector);
//  - size line: the right number of non-negative integers; rows/columns above
//    2^31-1 (32-bit indices) or sizes whose product overflows are refused;
//  - entries: the right number of fields per line (too few: truncated line;
//    too many: trailing text), indices in 1..rows / 1..cols, numbers that parse
//    completely (no "1.0d0", no hex), integers that fit in 64 bits;
//  - the number of entries must equal the declared count (too few: the last
//    line is named; too many: the first surplus line);
//  - symmetric, skew-symmetric and hermitian files may list only the lower
//    triangle (an entry above the diagonal is an error: it would be doubled);
//    a skew-symmetric diagonal entry must be zero (it is kept once), a hermitian
//    diagonal entry must be real;
//  - NaN and Inf ("nan", "inf", "infinity") are refused unless
//    MmReadOptions::allow_non_finite: the format does not define them and a
//    test matrix containing them is almost always a bug;
//  - real overflow (1e999) is an error; underflow becomes 0 (or a subnormal),
//    as strtod does.
// Reading complex data into a real type is an error; real, integer and
// pattern data read into any type (pattern values are 1).
//
// Writing goes through write_file_atomic (never half-written), gzip-compressed
// when the name ends in ".gz". Numbers are written in the shortest form that
// reads back to the same value (std::to_chars), so write-then-read is exact.
// Writing with a symmetry first checks that the matrix has it.
#pragma once
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "sparse/formats.hpp"

namespace tessera::sparse {

enum class MmObject { matrix, vector };
enum class MmFormat { coordinate, array };
enum class MmField { real, double_, integer, complex, pattern };
enum class MmSymmetry { general, symmetric, skew_symmetric, hermitian };

std::string_view to_string(MmObject v);
std::string_view to_string(MmFormat v);
std::string_view to_string(MmField v);
std::string_view to_string(MmSymmetry v);
/// Parse the banner words (case-insensitive); std::nullopt if unknown.
std::optional<MmFormat> parse_mm_format(std::string_view s);
std::optional<MmField> parse_mm_field(std::string_view s);
std::optional<MmSymmetry> parse_mm_symmetry(std::string_view s);

struct MmHeader {
  MmObject object = MmObject::matrix;
  MmFormat format = MmFormat::coordinate;
  MmField field = MmField::real;
  MmSymmetry symmetry = MmSymmetry::general;
  size64 rows = 0, cols = 0;
  size64 entries = 0;                 ///< data lines in the file (before expansion)
  std::vector<std::string> comments;  ///< comment lines of the header, without the '%'
};

struct MmReadOptions {
  bool allow_non_finite = false;  ///< accept nan/inf values
};

/// Parses Matrix Market text; `source` names it in error messages.
template <Scalar T>
Coo<T> parse_matrix_market(std::string_view text, std::string_view source,
                           MmHeader* header = nullptr, MmReadOptions opt = {});
/// Reads a .mtx or .mtx.gz file.
template <Scalar T>
Coo<T> read_matrix_market(const std::filesystem::path& path, MmHeader* header = nullptr,
                          MmReadOptions opt = {});
/// Reads a dense vector: any file holding a rows x 1 or 1 x cols matrix or a
/// vector object (missing coordinate entries are 0, duplicates summed).
template <Scalar T>
std::vector<T> read_matrix_market_vector(const std::filesystem::path& path,
                                         MmHeader* header = nullptr, MmReadOptions opt = {});
/// A file read in the widest type its field needs: double for real, integer
/// and pattern data, std::complex<double> for complex data.
struct MmMatrix {
  MmHeader header;
  std::variant<Coo<double>, Coo<std::complex<double>>> coo;
};
MmMatrix read_matrix_market_any(const std::filesystem::path& path, MmReadOptions opt = {});

/// Only the banner and size line (the file is read, the entries are not parsed).
MmHeader read_matrix_market_header(const std::filesystem::path& path);

struct MmWriteOptions {
  std::optional<MmField> field;  ///< default: complex for complex T, else real
  MmSymmetry symmetry = MmSymmetry::general;
  MmFormat format = MmFormat::coordinate;
  std::vector<std::string> comments;  ///< written as "%<line>" after the banner
};

/// Matrix Market text of `a`. Throws Error if `a` lacks the requested
/// symmetry, if the field cannot hold its values (complex values as real,
/// non-integral values as integer) or on pattern + array.
template <Scalar T>
std::string format_matrix_market(const Csr<T>& a, const MmWriteOptions& opt = {});
template <Scalar T>
void write_matrix_market(const std::filesystem::path& path, const Csr<T>& a,
                         const MmWriteOptions& opt = {});
/// Duplicates are summed first.
template <Scalar T>
void write_matrix_market(const std::filesystem::path& path, const Coo<T>& a,
                         const MmWriteOptions& opt = {});
/// A dense vector as an n x 1 `matrix array` file.
template <Scalar T>
void write_matrix_market_vector(const std::filesystem::path& path, std::span<const T> v,
                                const MmWriteOptions& opt = {});

}  // namespace tessera::sparse
