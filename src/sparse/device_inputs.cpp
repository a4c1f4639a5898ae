#include "sparse/device_inputs.hpp"

#include <algorithm>
#include <iterator>
#include <variant>

#include <fmt/format.h>

#include "core/error.hpp"
#include "sparse/convert.hpp"
#include "sparse/host_memory.hpp"
#include "sparse/laplacian.hpp"
#include "sparse/matrix_families.hpp"
#include "sparse/matrix_market.hpp"

namespace tessera::sparse {

template <Scalar T>
Bcsr<T> trace_bcsr(const TraceCase& c) {
  Bcsr<T> out;
  out.block = {c.vars, c.vars, BlockLayout::row_major};
  size64 block_row_base = 0, block_col_base = 0;
  for (int g = 0; g < c.grid_blocks; ++g) {
    const Bcsr<T> b = to_bcsr(generate_trace_block<T>(c, g));
    const size64 base = out.nblocks();
    to_index(base + b.nblocks(), "TRACE case blocks");
    to_index(checked_mul(base + b.nblocks(), out.block.size(), "TRACE case values"),
             "TRACE case values");
    for (size64 sb = 0; sb < b.stored_block_rows(); ++sb) {
      out.row_ptr.push_back(static_cast<index_t>(base + b.row_ptr[sb + 1]));
      out.block_row_map.push_back(
          to_index(block_row_base + mapped_row(b.block_row_map, sb), "TRACE block rows"));
    }
    for (index_t j : b.col) out.col.push_back(to_index(block_col_base + j, "TRACE block columns"));
    out.val.insert(out.val.end(), b.val.begin(), b.val.end());
    out.rows += b.rows;
    out.cols += b.cols;
    block_row_base += b.block_rows();
    block_col_base += b.block_cols();
  }
  return out;
}

bool spec_is_complex(std::string_view spec) {
  return spec.rfind("laplace7:", 0) != 0 && !is_family_spec(spec);
}

bool file_is_complex(const std::string& path) {
  return read_matrix_market_header(path).field == MmField::complex;
}

template <Scalar T>
HostMatrix<T> generate_matrix(std::string_view spec) {
  HostMatrix<T> m;
  m.name = std::string(spec);
  if (spec.rfind("laplace7:", 0) == 0) {
    const GridSize g = parse_laplacian(spec);
    m.csr = laplacian_7pt<T>(g.nx, g.ny, g.nz);
  } else if (is_family_spec(spec)) {
    m.csr = generate_family<T>(spec);
  } else {
    // neither a family nor laplace7: a TRACE case, whose parser names its
    // own kinds; another name gets the whole list
    const std::string_view kind = spec.substr(0, std::min(spec.find(':'), spec.find(',')));
    constexpr std::string_view trace_kinds[] = {"trace", "euler3d", "ns3d", "euler2d", "ns2d"};
    if (std::find(std::begin(trace_kinds), std::end(trace_kinds), kind) == std::end(trace_kinds))
      throw UsageError(fmt::format(
          "--generate {}: no generated matrix '{}' (expected laplace7:N or NXxNYxNZ; a family "
          "FAMILY:N[,key=value...] with FAMILY {}; or a TRACE case: trace:1..trace:6, or "
          "KIND:NXxNTHETAxNR with KIND trace, euler3d, ns3d, euler2d or ns2d)",
          spec, kind, family_names()));
    m.block = trace_bcsr<T>(parse_trace_case(spec));
    m.is_block = true;
  }
  return m;
}

template <Scalar T>
HostMatrix<T> read_matrix(const std::string& path) {
  HostMatrix<T> m;
  m.name = path;
  MmMatrix f = read_matrix_market_any(path);
  std::visit(
      [&](const auto& coo) {
        using F = typename std::decay_t<decltype(coo)>::value_type;
        if constexpr (is_complex_v<F> && !is_complex_v<T>)
          throw UsageError(
              fmt::format("{} holds complex values: run it with complex values", path));
        else {
          // Checked before anything follows the declared size: the CSR row
          // pointers (and temporaries), x and y and the host reference's y.
          const std::uint64_t v = sizeof(T) * (2 * static_cast<std::uint64_t>(coo.rows) + coo.cols);
          require_host_memory(
              csr_build_bytes(coo.rows, coo.nnz(), sizeof(F)) + v,
              fmt::format("the declared {} x {} matrix ({} entries): CSR row pointers and dense "
                          "vectors sized by the rows and columns",
                          coo.rows, coo.cols, coo.nnz()),
              path,
              "check the size line of the file (row pointers and vectors follow the declared size, "
              "not the entries), or run on a machine with more memory");
          m.csr = cast_values<T>(to_csr(coo));
        }
      },
      f.coo);
  return m;
}

#define TS_INSTANTIATE(T)                                      \
  template Bcsr<T> trace_bcsr<T>(const TraceCase&);            \
  template HostMatrix<T> generate_matrix<T>(std::string_view); \
  template HostMatrix<T> read_matrix<T>(const std::string&);
TESSERA_SPARSE_FOR_EACH_SCALAR(TS_INSTANTIATE)
#undef TS_INSTANTIATE

}  // namespace tessera::sparse
