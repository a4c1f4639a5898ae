// scipy.sparse CSR arrays (indptr, indices, data, shape) to tessera's Csr<V>.
#pragma once
#include <utility>

#include "common.hpp"
#include "sparse/formats.hpp"
#include "sparse/validate.hpp"

namespace tessera::py {

/// Copies the three CSR arrays (int32 indices, V values) into a Csr<V> and
/// validates it (sorted, unique, in range): Error naming what is wrong.
template <class V>
sparse::Csr<V> csr_from_arrays(const AnyArray& indptr, const AnyArray& indices,
                               const AnyArray& data, std::pair<long, long> shape) {
  if (shape.first < 0 || shape.second < 0) throw UsageError("sparse: negative matrix shape");
  sparse::Csr<V> a;
  a.rows = shape.first;
  a.cols = shape.second;
  a.row_ptr = to_vector<sparse::index_t>(indptr, "sparse: indptr");
  a.col = to_vector<sparse::index_t>(indices, "sparse: indices");
  a.val = to_vector<V>(data, "sparse: data");
  if (a.row_ptr.size() != static_cast<std::size_t>(a.rows + 1))
    throw UsageError("sparse: indptr has " + std::to_string(a.row_ptr.size()) + " entries for " +
                     std::to_string(a.rows) + " rows (expected rows + 1)");
  sparse::validate(a);
  return a;
}

/// Calls f.template operator()<V>() with V the value type named by `data`'s dtype.
template <class F>
auto dispatch_value(const AnyArray& data, const char* what, F&& f) {
  if (is_dtype<float>(data)) return f.template operator()<float>();
  if (is_dtype<double>(data)) return f.template operator()<double>();
  if (is_dtype<std::complex<float>>(data)) return f.template operator()<std::complex<float>>();
  if (is_dtype<std::complex<double>>(data)) return f.template operator()<std::complex<double>>();
  throw UsageError(std::string(what) +
                   ": values must be float32, float64, complex64 or complex128, got " +
                   dtype_name(data));
}

}  // namespace tessera::py
