#include "core/env.hpp"

#include <cctype>
#include <charconv>
#include <cstdlib>

#include <fmt/format.h>

#include "core/error.hpp"

namespace tessera {

namespace {

[[noreturn]] void refuse(const char* name, const std::string& value, std::string_view expected) {
  throw UsageError(fmt::format("environment variable {}={}: expected {}", name, value, expected));
}

}  // namespace

std::optional<std::string> env_string(const char* name) {
  const char* v = std::getenv(name);
  if (!v || !*v) return std::nullopt;
  return std::string(v);
}

long env_int(const char* name, long def, long min, long max) {
  const auto v = env_string(name);
  if (!v) return def;
  long n = 0;
  const char* first = v->data();
  const char* last = first + v->size();
  const auto [end, ec] = std::from_chars(first, last, n);
  if (ec != std::errc() || end != last || n < min || n > max)
    refuse(name, *v, fmt::format("an integer from {} to {}", min, max));
  return n;
}

bool env_flag(const char* name, bool def) {
  const auto v = env_string(name);
  if (!v) return def;
  if (*v == "1") return true;
  if (*v == "0") return false;
  refuse(name, *v, "0 or 1");
}

std::string env_choice(const char* name, std::string_view def,
                       std::initializer_list<std::string_view> accepted) {
  const auto v = env_string(name);
  if (!v) return std::string(def);
  std::string list;
  std::size_t i = 0;
  for (const std::string_view a : accepted) {
    if (*v == a) return *v;
    list += i == 0 ? "" : i + 1 == accepted.size() ? " or " : ", ";
    list += a;
    ++i;
  }
  refuse(name, *v, list);
}

std::optional<std::uint64_t> env_bytes(const char* name) {
  const auto v = env_string(name);
  if (!v) return std::nullopt;
  const std::string& s = *v;
  // digits [. digits], then an optional K/M/G/T and an optional B
  std::size_t i = 0, digits = 0;
  while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i, ++digits;
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i, ++digits;
  }
  const std::size_t number_end = i;
  std::uint64_t scale = 1;
  if (i < s.size()) {
    // K, M, G, T: 2^10, 2^20, 2^30, 2^40; anything else is refused below (scale 0)
    const auto unit = std::string_view("KMGT").find(
        static_cast<char>(std::toupper(static_cast<unsigned char>(s[i]))));
    scale = unit == std::string_view::npos ? 0 : 1ull << (10 * (unit + 1));
    ++i;
    if (scale && i < s.size() && std::toupper(static_cast<unsigned char>(s[i])) == 'B') ++i;
  }
  const double bytes =
      digits ? std::strtod(s.substr(0, number_end).c_str(), nullptr) * double(scale) : -1;
  // 2^64 is exactly representable; every double below it converts
  if (digits == 0 || scale == 0 || i != s.size() || !(bytes < 18446744073709551616.0))
    refuse(name, s,
           "a number of bytes with an optional suffix K, M, G or T (powers of 1024), below 2^64");
  return static_cast<std::uint64_t>(bytes);
}

}  // namespace tessera
