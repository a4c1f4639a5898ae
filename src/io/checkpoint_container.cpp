#include "io/checkpoint_container.hpp"

#include <cmath>
#include <cstring>
#include <limits>

#include <fmt/format.h>

#include "core/hash.hpp"

namespace tessera::io {

namespace {

void put_u64(std::string& out, std::uint64_t v) {
  out.append(reinterpret_cast<const char*>(&v), sizeof v);
}

}  // namespace

std::string format_container(std::string_view magic, const nlohmann::json& header,
                             std::initializer_list<std::string_view> payload) {
  if (magic.size() != 8) throw Error("internal: a checkpoint magic has 8 characters");
  const std::string h = header.dump();
  std::size_t size = 8 + 8 + h.size() + 8;
  for (auto p : payload) size += p.size();
  std::string out;
  out.reserve(size);
  out.append(magic);
  put_u64(out, h.size());
  out += h;
  for (auto p : payload) out.append(p);
  put_u64(out, fnv1a64(out));
  return out;
}

Error container_error(const std::string& source, const std::string& what, const std::string& why) {
  return Error(source + ": not a valid " + what + ": " + why);
}

ContainerContents parse_container(std::string_view data, std::string_view magic,
                                  const std::string& what, const std::string& source) {
  auto bad = [&](const std::string& why) { return container_error(source, what, why); };
  if (data.size() < 24 || data.substr(0, magic.size()) != magic)
    throw bad(fmt::format("no {} signature at the start", magic));
  std::uint64_t sum = 0, hlen = 0;
  std::memcpy(&sum, data.data() + data.size() - 8, 8);
  if (sum != fnv1a64(data.substr(0, data.size() - 8)))
    throw bad("checksum mismatch (the file is corrupt or truncated)");
  std::memcpy(&hlen, data.data() + 8, 8);
  if (hlen > data.size() - 24) throw bad("header length exceeds the file");
  ContainerContents out;
  try {
    out.header = nlohmann::json::parse(data.substr(16, hlen));
  } catch (const std::exception& e) {
    throw bad(std::string("header: ") + e.what());
  }
  if (!out.header.is_object()) throw bad("header: the header is not a JSON object");
  out.payload = data.substr(16 + hlen, data.size() - 24 - hlen);
  return out;
}

long header_integer(const nlohmann::json& j, const char* name) {
  if (!j.is_number_integer()) throw Error(fmt::format("'{}' is not an integer", name));
  if (j.is_number_unsigned() &&
      j.get<std::uint64_t>() > std::uint64_t(std::numeric_limits<long>::max()))
    throw Error(fmt::format("'{}' is out of range", name));
  return j.get<long>();
}

std::array<long, 3> header_integers3(const nlohmann::json& j, const char* name) {
  if (!j.is_array() || j.size() != 3)
    throw Error(fmt::format("'{}' is not an array of 3 integers", name));
  return {header_integer(j[0], name), header_integer(j[1], name), header_integer(j[2], name)};
}

double header_real(const nlohmann::json& j, const char* name) {
  if (!j.is_number()) throw Error(fmt::format("'{}' is not a number", name));
  return j.get<double>();
}

double header_finite(const nlohmann::json& j, const char* name) {
  const double v = header_real(j, name);
  if (!std::isfinite(v)) throw Error(fmt::format("'{}' = {} is not finite", name, v));
  return v;
}

long header_count(const nlohmann::json& j, const char* name, long max) {
  if (!j.is_number_integer()) throw Error(fmt::format("'{}' is not an integer", name));
  const std::string upper = max == kMaxCount ? std::string("2^53") : std::to_string(max);
  if (j.is_number_unsigned() ? j.get<std::uint64_t>() > std::uint64_t(max)
                             : (j.get<long>() < 0 || j.get<long>() > max))
    throw Error(fmt::format("'{}' = {} is outside 0..{}", name, j.dump(), upper));
  return j.get<long>();
}

std::string header_string(const nlohmann::json& j, const char* name) {
  if (!j.is_string()) throw Error(fmt::format("'{}' is not a string", name));
  return j.get<std::string>();
}

bool checked_size(std::uint64_t a, std::uint64_t b, std::uint64_t c, std::uint64_t& out) noexcept {
  return !__builtin_mul_overflow(a, b, &out) && !__builtin_add_overflow(out, c, &out);
}

}  // namespace tessera::io
