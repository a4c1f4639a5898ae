// Host matrices for device runs (`tessera sparse spmv`, `tessera bench spmv`):
// a TRACE case as one BCSR matrix, generator specs, Matrix Market files, all
// in the value type a run asks for.
#pragma once
#include <string>
#include <string_view>

#include "sparse/formats.hpp"
#include "sparse/trace_generator.hpp"

namespace tessera::sparse {

/// All grid blocks of a TRACE case as one block-diagonal BCSR matrix in
/// TRACE's GPU form (compressed row pointer + block row index, row-major
/// blocks, in-block zeros kept), built without going through CSR. One SpMV
/// over it does what the thesis's 8 per-grid-block SpMVs do, in one launch.
template <Scalar T>
Bcsr<T> trace_bcsr(const TraceCase& c);

/// A host matrix for a device run: `block` is set (and `csr` empty) for TRACE
/// cases, `csr` otherwise.
template <Scalar T>
struct HostMatrix {
  std::string name;
  Bcsr<T> block;
  Csr<T> csr;
  bool is_block = false;
};

/// "trace:...", "euler3d:..." etc. (trace_generator.hpp), "laplace7:..."
/// (laplacian.hpp) or a matrix family (matrix_families.hpp: "powerlaw:...",
/// "fem3:...", ...); UsageError otherwise.
template <Scalar T>
HostMatrix<T> generate_matrix(std::string_view spec);

/// A Matrix Market file; complex files need a complex T (UsageError).
template <Scalar T>
HostMatrix<T> read_matrix(const std::string& path);

/// Whether a generator spec or file holds complex values (TRACE: yes).
bool spec_is_complex(std::string_view spec);
bool file_is_complex(const std::string& path);

}  // namespace tessera::sparse
