// Environment variables, read in one checked way. Every variable tessera
// reads goes through these functions (docs/backends.md lists them): a value
// that is set but malformed or out of range is refused with a UsageError
// naming the variable, its value and what was expected, never replaced by the
// default. A variable that is unset or set to the empty string takes the
// default. The functions read the environment on every call; callers that
// sit on a hot path keep the result.
#pragma once
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

namespace tessera {

/// The value of `name`, or nullopt when it is unset or empty.
std::optional<std::string> env_string(const char* name);

/// A decimal integer in [min, max] (digits only, an optional leading '-';
/// no spaces, no suffix), or `def` when unset.
long env_int(const char* name, long def, long min, long max);

/// 0 or 1, or `def` when unset.
bool env_flag(const char* name, bool def);

/// One of `accepted` (exact, case-sensitive), or `def` when unset.
std::string env_choice(const char* name, std::string_view def,
                       std::initializer_list<std::string_view> accepted);

/// A number of bytes, optionally fractional, with an optional suffix K, M, G
/// or T (powers of 1024, either case, optionally followed by B), below 2^64;
/// nullopt when unset.
std::optional<std::uint64_t> env_bytes(const char* name);

}  // namespace tessera
