// Host-side conversion between interior arrays (x fastest, then y, then z)
// and the halo layout of mg/kernels/mg_grid.h (Dims::split: the storage by
// colour).
#pragma once
#include <vector>

#include "core/buffer.hpp"
#include "mg/kernels/mg_kernels.hpp"

namespace tessera::mg {

template <class T>
std::vector<T> to_halo_layout(const Dims& d, const std::vector<T>& interior);
template <class T>
std::vector<T> from_halo_layout(const Dims& d, const std::vector<T>& storage);

/// field = interior in the halo layout of d (halo zero), on field's device.
template <class T>
void upload_interior(Buffer<T>& field, const Dims& d, const std::vector<T>& interior) {
  field.copy_from_host(to_halo_layout(d, interior));
}
/// The interior values of a device field stored in the halo layout of d.
template <class T>
std::vector<T> download_interior(const Buffer<T>& field, const Dims& d) {
  return from_halo_layout(d, field.to_vector());
}

}  // namespace tessera::mg
