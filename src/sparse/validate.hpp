// Invariant checks for every format (what formats.hpp promises): array
// lengths, index ranges, sorted columns, row maps, padding that is readable.
// Each throws Error naming the format and the first broken invariant. Tests run
// them after every conversion; GPU code may run them on matrices it is handed.
#pragma once
#include "sparse/formats.hpp"

namespace tessera::sparse {

/// validate(const Format<T>&) for every format of formats.hpp.
TESSERA_SPARSE_DECLARE_FOR_EACH_FORMAT(void, validate)

}  // namespace tessera::sparse
