// A device copy of a host vector for the sparse module's kernels and
// baselines: at least one element, so that an empty array is still a valid
// buffer to pass to a kernel or a library (no zero-sized allocation).
#pragma once
#include <algorithm>
#include <memory>
#include <vector>

#include "core/buffer.hpp"

namespace tessera::sparse {

template <class T>
Buffer<T> upload_nonempty(const std::shared_ptr<Device>& d, const std::vector<T>& v) {
  Buffer<T> b(d, std::max<std::size_t>(v.size(), 1));
  if (!v.empty()) d->queue().write(b.handle(), 0, v.data(), v.size() * sizeof(T), true);
  return b;
}

}  // namespace tessera::sparse
