// The byte container of tessera's checkpoints (lbm, swe), separate from any
// solver so that a reader can validate it (and be fuzzed) without a device:
//   magic (8) | header length (8, uint64, host order) | JSON header (object)
//   | payload | FNV-1a 64 of everything before (8)
// parse_container checks the signature, the checksum, the header length and
// that the header is a JSON object; the caller then reads typed header fields
// with the checked readers below and compares the payload size the header
// implies with the payload before allocating anything (a forged header must
// not ask for terabytes).
#pragma once
#include <array>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>

#include <nlohmann/json.hpp>

#include "core/error.hpp"

namespace tessera::io {

/// The checkpoint bytes: `magic` (exactly 8 characters), the header, the
/// payload pieces in order, the checksum.
std::string format_container(std::string_view magic, const nlohmann::json& header,
                             std::initializer_list<std::string_view> payload);

struct ContainerContents {
  nlohmann::json header;     ///< a JSON object
  std::string_view payload;  ///< a view into the parsed bytes
};

/// Validates the container. Errors read "<source>: not a valid <what>: <why>"
/// (container_error); JSON syntax errors and a non-object header are reported
/// as "header: ...".
ContainerContents parse_container(std::string_view data, std::string_view magic,
                                  const std::string& what, const std::string& source);

/// The Error every checkpoint reader throws for a bad file.
Error container_error(const std::string& source, const std::string& what, const std::string& why);

/// A parsed container (parse_container) with the steps every checkpoint
/// reader takes next: its errors name the source and what it should be, and
/// any failure while reading the header is reported as "header: ...".
class ContainerReader {
 public:
  ContainerReader(std::string_view data, std::string_view magic, std::string what,
                  std::string source)
      : box_(parse_container(data, magic, what, source)),
        what_(std::move(what)),
        source_(std::move(source)) {}
  std::string_view payload() const noexcept { return box_.payload; }
  /// container_error(source, what, why), to throw.
  Error bad(const std::string& why) const { return container_error(source_, what_, why); }
  /// Calls f(header); an exception from it becomes bad("header: <what()>").
  template <class F>
  void read_header(F&& f) const {
    try {
      std::forward<F>(f)(box_.header);
    } catch (const std::exception& e) {
      throw bad(std::string("header: ") + e.what());
    }
  }

 private:
  ContainerContents box_;
  std::string what_, source_;
};

// Typed header fields. A JSON number converted to an integer type without a
// check would be undefined behaviour for 1e300 or 2.5: these throw
// Error("'name' is not an integer") etc. instead.
long header_integer(const nlohmann::json& j, const char* name);
double header_real(const nlohmann::json& j, const char* name);
std::string header_string(const nlohmann::json& j, const char* name);
/// A finite number (JSON cannot spell NaN or infinity, but a header is checked
/// as if it could): "'name' = inf is not finite".
double header_finite(const nlohmann::json& j, const char* name);

/// The largest step count, time step or output counter a checkpoint may hold:
/// 2^53, so that a count converts to a double exactly and later arithmetic on
/// it (count + steps, file names, count * interval) cannot overflow 64 bits.
inline constexpr long kMaxCount = 1L << 53;

/// An integer in 0..max: "'name' = 4611686018427388004 is outside 0..2^53"
/// (the upper end written as 2^53 when it is kMaxCount).
long header_count(const nlohmann::json& j, const char* name, long max = kMaxCount);

/// An array of exactly 3 integers (extents, grids): "'name' is not an array of 3 integers".
std::array<long, 3> header_integers3(const nlohmann::json& j, const char* name);

/// a * b + c for sizes from a header, or false when it overflows 64 bits.
bool checked_size(std::uint64_t a, std::uint64_t b, std::uint64_t c, std::uint64_t& out) noexcept;

}  // namespace tessera::io
