// The checked downcast from the core interfaces to one backend's classes
// (device_of, queue_of): a mismatch is a tessera bug, not a user error.
#pragma once
#include <concepts>
#include <string>
#include <string_view>

#include "core/device.hpp"
#include "core/error.hpp"

namespace tessera {

/// x as To, or Error("internal: <device id | queue> is not <what>").
template <class To, class From>
To& backend_cast(From& x, std::string_view what) {
  if (auto* to = dynamic_cast<To*>(&x)) return *to;
  std::string name = "queue";
  if constexpr (std::derived_from<From, Device>) name = x.id();
  throw Error("internal: " + name + " is not " + std::string(what));
}

}  // namespace tessera
