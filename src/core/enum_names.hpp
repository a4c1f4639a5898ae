// Names of enumerators kept in a table indexed by the enumerator, for enums
// numbered 0, 1, 2, ...: to_string and the parsers of options and file words
// share one list instead of a switch and a loop each. A table gets no -Wswitch,
// so next to each one put
//   static_assert(kNames.size() == std::size_t(E::last) + 1);
#pragma once
#include <algorithm>
#include <array>
#include <cctype>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "core/error.hpp"

namespace tessera {

/// names[e]; fallback for a value outside the table (only a cast from a bad
/// integer makes one).
template <class E, std::size_t N>
constexpr std::string_view enum_name(E e, const std::array<std::string_view, N>& names,
                                     std::string_view fallback = "?") noexcept {
  const auto k = static_cast<std::size_t>(e);
  return k < N ? names[k] : fallback;
}

/// The enumerator named s, if any (ignore_case: for file formats whose words
/// may be written in any case).
template <class E, std::size_t N>
std::optional<E> enum_lookup(std::string_view s, const std::array<std::string_view, N>& names,
                             bool ignore_case = false) {
  const auto same = [ignore_case](char x, char y) {
    if (!ignore_case) return x == y;
    return std::tolower(static_cast<unsigned char>(x)) ==
           std::tolower(static_cast<unsigned char>(y));
  };
  for (std::size_t k = 0; k < N; ++k)
    if (std::ranges::equal(names[k], s, same)) return static_cast<E>(k);
  return std::nullopt;
}

/// The enumerator named s, or UsageError "unknown <what> 's' (expected a, b or c)".
template <class E, std::size_t N>
E enum_parse(std::string_view s, const std::array<std::string_view, N>& names,
             std::string_view what) {
  static_assert(N > 0);
  if (auto e = enum_lookup<E>(s, names)) return *e;
  std::string expected(names[0]);
  for (std::size_t k = 1; k < N; ++k) expected.append(k + 1 < N ? ", " : " or ").append(names[k]);
  throw UsageError("unknown " + std::string(what) + " '" + std::string(s) + "' (expected " +
                   expected + ")");
}

}  // namespace tessera
