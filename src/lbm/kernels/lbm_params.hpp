// StepParams in a variant's arithmetic type (the struct of lbm_point.h), for
// the CPU and CUDA launchers.
#pragma once
#include "lbm/kernels/lbm_kernels.hpp"

namespace tessera::lbm {

template <class V>
typename V::params to_point_params(const StepParams& s) {
  using R = typename V::real;
  typename V::params p{};
  p.omega_p = R(s.omega_p);
  p.omega_m = R(s.omega_m);
  p.fx = R(s.force[0]);
  p.fy = R(s.force[1]);
  p.fz = R(s.force[2]);
  p.uwx = R(s.u_wall[0]);
  p.uwy = R(s.u_wall[1]);
  p.uwz = R(s.u_wall[2]);
  p.uix = R(s.u_in[0]);
  p.uiy = R(s.u_in[1]);
  p.uiz = R(s.u_in[2]);
  p.rho_out = R(s.rho_out);
  p.trt = s.trt ? 1 : 0;
  return p;
}

}  // namespace tessera::lbm
