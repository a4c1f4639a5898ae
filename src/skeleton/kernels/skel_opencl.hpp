// OpenCL side of the skeletons: kernels generated around the user's OpenCL C
// source (skel_template.cl), built per device and cached in memory. Type
// erased: fields are cl_mem handles with their layouts, types are OpenCL C
// names, values are bytes.
#pragma once
#include <string>
#include <vector>

#include "core/device.hpp"
#include "skeleton/kernels/skel_ops.hpp"
#include "skeleton/kernels/skel_params.h"
#include "skeleton/user_function.hpp"

namespace tessera::skeleton::kernels::cl {

/// One field's part for a generated kernel.
struct ClView {
  void* handle = nullptr;  ///< the cl_mem
  index_t origin = 0;      ///< element offset of local owned (0, 0, 0), component 0
  index_t sy = 0, sz = 0, cs = 0;
  std::string type;         ///< OpenCL C type name
  std::string declaration;  ///< prepended type declaration, if any
  std::size_t elem_bytes = 0;
  ts_skel_view params() const { return {origin, sy, sz, cs}; }
};

void map(Device& dev, Queue& q, const ClFunction& f, MapKind kind, int dims, const ClView& a,
         const ClView* b, const ClView& out, const Box& box, const Index3& lo, int components);

struct ClBoundary {
  ts_skel_bounds bounds;
  std::vector<unsigned char> neutral;  ///< the neutral value's bytes
  const ClFunction* user = nullptr;    ///< for BoundaryMode::user
};

/// mapStencil on `boxes` (plain loads), or with fill = true the ghost cells
/// of `in` in `boxes` (skel_ops.hpp's GhostFillOp; `out` unused).
void stencil(Device& dev, Queue& q, const ClFunction& f, const ClBoundary& boundary, bool fill,
             const ClView& in, const ClView& out, const BoxList& boxes, const Index3& lo);

/// Canonical fold of `rows` rows of `len` elements (row r at offset
/// origin + (r / rows_y) * sz + (r % rows_y) * sy) into out[r * chunks + k].
void reduce_rows(Device& dev, Queue& q, const ClFunction& f, const ClView& in, index_t len,
                 index_t rows_y, index_t rows, void* out_handle, index_t chunks);

}  // namespace tessera::skeleton::kernels::cl
