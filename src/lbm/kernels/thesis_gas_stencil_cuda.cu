// CUDA instances of the skeleton's mapStencil for the thesis's Muesli
// functor (thesis_gas_stencil.hpp).
#include "lbm/thesis_gas_stencil.hpp"
#include "skeleton/kernels/skel_cuda.cuh"

TS_SKEL_CUDA_STENCIL(tessera::lbm::ThesisGasStencil, tessera::lbm::ThesisCell,
                     tessera::skeleton::kernels::NoBoundaryFunction)
