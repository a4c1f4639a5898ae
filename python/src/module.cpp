// The extension module tessera._tessera: one bind_<module>() per file.
#include "common.hpp"

NB_MODULE(_tessera, m) {
  m.doc() = "tessera: GPU numerical toolkit (CPU/OpenMP, OpenCL, CUDA backends)";
  using namespace tessera::py;
  bind_core(m);
  auto mg = m.def_submodule("mg", "geometric multigrid");
  bind_mg(mg);
  auto sparse = m.def_submodule("sparse", "sparse formats, Matrix Market, SpMV");
  bind_sparse(sparse);
  bind_krylov(m);
  auto swe = m.def_submodule("swe", "shallow water");
  bind_swe(swe);
  auto skel = m.def_submodule("skeleton", "skeleton fields: map, zip, fold, mapStencil");
  bind_skeleton(skel);
  auto lbm = m.def_submodule("lbm", "lattice Boltzmann");
  bind_lbm(lbm);
}
