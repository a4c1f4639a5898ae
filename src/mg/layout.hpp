// Host-side conversion between interior arrays (x fastest, then y, then z)
// and the halo layout of mg/kernels/mg_grid.h (Dims::split: the storage by
// colour).
#pragma once
#include <vector>

#include "mg/kernels/mg_kernels.hpp"

namespace tessera::mg {

template <class T>
std::vector<T> to_halo_layout(const Dims& d, const std::vector<T>& interior);
template <class T>
std::vector<T> from_halo_layout(const Dims& d, const std::vector<T>& storage);

}  // namespace tessera::mg
