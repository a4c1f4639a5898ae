// Helpers shared by the tests: the device list to parameterise over, random
// inputs, poison values.
#pragma once
#include <gtest/gtest.h>

#include <limits>
#include <random>
#include <string>
#include <vector>

#include "core/registry.hpp"

namespace tessera::test {

/// Ids of every device present (cpu, each OpenCL device, each CUDA device).
inline std::vector<std::string> device_ids() {
  std::vector<std::string> ids;
  for (const auto& d : list_devices()) ids.push_back(d.id);
  return ids;
}

/// GoogleTest-safe name for a device id ("opencl:0:0" -> "opencl_0_0").
inline std::string id_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string s = info.param;
  for (char& c : s)
    if (c == ':') c = '_';
  return s;
}

/// Uniform random values in [lo, hi), never all zero, reproducible per seed.
template <class T>
std::vector<T> random_vector(std::size_t n, std::uint64_t seed, double lo = -1.0, double hi = 1.0) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(lo, hi);
  std::vector<T> v(n);
  for (auto& x : v) x = static_cast<T>(u(rng));
  return v;
}

template <class T>
constexpr T poison() {
  return std::numeric_limits<T>::quiet_NaN();
}

/// A version 1.0 .npy file with the given header dict and raw data, written
/// byte by byte (io::write_npy writes floats only): masks, forged headers.
inline std::string npy_v1(const std::string& header_dict, const std::string& data) {
  std::string h = header_dict;
  h.append((64 - (10 + h.size() + 1) % 64) % 64, ' ');
  h += '\n';
  std::string out("\x93NUMPY\x01\x00", 8);
  out += static_cast<char>(h.size() & 0xff);
  out += static_cast<char>(h.size() >> 8);
  return out + h + data;
}

}  // namespace tessera::test
