// The thesis's gas simulation written as the thesis wrote it for Muesli: one
// user function (kernels/thesis_gas_stencil.h) given to the skeleton's
// mapStencil on a field of 76-byte cells, on every backend (C++ and CUDA
// functor, OpenCL source from the same text). ThesisGasParts runs it with
// ThesisGasImpl::map_stencil.
#pragma once
#include "core/kernels/bits.h"
#include "lbm/kernels/thesis_gas_point.hpp"
#include "lbm/thesis_gas.hpp"
#include "skeleton/kernels/skel_access.h"
#include "skeleton/kernels/skel_ops.hpp"
#include "skeleton/user_function.hpp"

namespace tessera::lbm {

/// The thesis's cell_t = array<float, 19> (the skeleton's element type).
struct ThesisCell {
  float f[thesis::kQ];
};
static_assert(sizeof(ThesisCell) == thesis::kCellBytes);

namespace thesis_point {
#define ts_real typename TsStencil::value_type
#include "lbm/kernels/thesis_gas_stencil.h"
#undef ts_real
}  // namespace thesis_point

/// The Muesli functor: pull the 18 moving populations from the neighbours,
/// then collide (keep-velocity cells unchanged).
struct ThesisGasStencil {
  template <class S>
  TS_FN typename S::value_type operator()(const S& s) const {
    return thesis_point::ts_thesis_gas_stencil(s);
  }
};

/// The functor and its OpenCL C text (built with correctly rounded division,
/// as the native OpenCL kernel is, so that every backend gives the same bits).
skeleton::Portable<ThesisGasStencil> thesis_gas_stencil();

}  // namespace tessera::lbm

template <>
struct tessera::skeleton::ClType<tessera::lbm::ThesisCell> {
  static constexpr const char* name = "ts_thesis_cell";
  static constexpr const char* declaration = "typedef struct { float f[19]; } ts_thesis_cell;\n";
};
TS_SKEL_CUDA_ENABLE(tessera::lbm::ThesisGasStencil)
