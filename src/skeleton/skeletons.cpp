// Checks and messages of the skeleton front end.
#include "skeleton/skeletons.hpp"

namespace tessera::skeleton {

namespace kernels {
void no_cxx_on_opencl(const char* skeleton) {
  throw UsageError(
      fmt::format("{}: a C++ functor cannot run on an OpenCL device; pass the function as "
                  "OpenCL C source (skeleton::ClFunction) or both (skeleton::portable)",
                  skeleton));
}
void not_instantiated_for_cuda(const char* skeleton, const char* functor) {
  throw UsageError(
      fmt::format("{}: functor {} was not instantiated for CUDA: add the TS_SKEL_CUDA_... lines "
                  "for it to a .cu file (skeleton/kernels/skel_cuda.cuh) and TS_SKEL_CUDA_ENABLE "
                  "to a header the caller includes (docs/skeleton.md)",
                  skeleton, functor));
}
}  // namespace kernels

namespace detail {

void throw_no_cl() {
  throw UsageError(
      "this user function has no OpenCL C source (skeleton::ClFunction / skeleton::portable)");
}

void throw_no_cxx(const char* skeleton, const Device& d) {
  throw UsageError(
      fmt::format("{}: an OpenCL C source function cannot run on {} ({}); pass a C++ functor "
                  "too (skeleton::portable)",
                  skeleton, d.id(), to_string(d.backend())));
}

void check_same(const FieldShape& a, const FieldShape& b, const char* what) {
  a.check_same_shape(b, what);
  if (a.components() != b.components())
    throw Error(fmt::format("{}: containers differ in components ({} vs {})", what, a.components(),
                            b.components()));
}

void check_stencil(const FieldShape& in, const Stencil& s, bool has_user_boundary) {
  const Extents& e = in.extents();
  for (int a = 0; a < 3; ++a) {
    const index_t r = s.radius[a], n = e.n[a];
    const char axis = "xyz"[a];
    if (r < 0) throw UsageError(fmt::format("mapStencil: radius {} along {} is negative", r, axis));
    if (r == 0) continue;
    if (s.mode[a] == BoundaryMode::user && !has_user_boundary)
      throw UsageError(
          fmt::format("mapStencil: boundary mode 'user' along {} needs a boundary function", axis));
    if (s.mode[a] == BoundaryMode::mirror && r >= n)
      throw UsageError(
          fmt::format("mapStencil: mirror boundary along {} needs more than {} cells (radius), "
                      "the domain has {}",
                      axis, r, n));
    if (s.mode[a] == BoundaryMode::periodic && r > n)
      throw UsageError(fmt::format(
          "mapStencil: periodic boundary along {}: radius {} exceeds the {} cells", axis, r, n));
    if (!in.decomposition().decomposed(a)) continue;
    for (const PartLayout& L : in.all_layouts())
      if (L.owned.extent(a) < r && in.decomposition().grid()[a] > 1)
        throw Error(fmt::format(
            "mapStencil: radius {} along {} is larger than part {}'s subdomain ({} cells of "
            "{} over {} parts): use fewer devices or a smaller radius",
            r, axis, L.global_part, L.owned.extent(a), n, in.decomposition().grid()[a]));
  }
}

}  // namespace detail
}  // namespace tessera::skeleton
