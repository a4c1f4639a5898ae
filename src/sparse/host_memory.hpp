// Work sized by declared dimensions: the host-memory check that sparse
// readers, converters and commands make before allocating what follows a
// file's declared rows and columns rather than its entries (defined in
// types.cpp, which every sparse target links).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/host_memory.hpp"
#include "sparse/types.hpp"

namespace tessera::sparse {

/// Host memory a sparse command may plan to use (core/host_memory.hpp).
using ::tessera::host_memory_limit;

/// Refuses, before anything is allocated, work whose size follows a file's
/// declared dimensions rather than its entries: throws Error("<source>: <what>
/// need <bytes> ..., but only <limit> of host memory is available; <advice>")
/// if `bytes` exceeds host_memory_limit().
void require_host_memory(std::uint64_t bytes, std::string_view what, std::string_view source,
                         std::string_view advice);

/// Host bytes to_csr(Coo) needs for a rows-row matrix with nnz COO entries
/// of `value_bytes` each: the result and its temporaries (row starts, distinct
/// counts, the order permutation).
std::uint64_t csr_build_bytes(size64 rows, size64 nnz, std::size_t value_bytes);

}  // namespace tessera::sparse
