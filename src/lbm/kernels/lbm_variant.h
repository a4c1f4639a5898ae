/* One variant's pass (core/kernels/variant_pass.h) for C++ and CUDA: the
 * kernels of lbm_kernel_list.h, and `Variant`, which gives host code
 * (diagnostics, checkpoints, the distributed solver's conversions) the
 * variant's types and point functions. */
#include "lbm/kernels/lbm_kernel_list.h"

struct Variant {
  static constexpr int q = TS_LBM_Q;
  using real = ts_real;
  using store = ts_lbm_store;
  using params = ts_lbm_params;
  using idx = ts_lbm_idx;
  // The helpers below take and give populations f_i - w_i in real units;
  // the point functions work in storage units (lbm_point.h).
  /* incoming populations of one cell */
  static void load_in(const store* f, const unsigned char* flags, long x, long y, long z, long nx,
                      long ny, long nz, int odd, const params* p, real* fin) {
    const ts_lbm_nbhd h = ts_lbm_neighbourhood(x, y, z, nx, ny, nz);
    ts_lbm_load_in(f, flags, flags[h.n], &h, odd, p, fin);
    for (int i = 0; i < q; ++i) fin[i] = ts_lbm_from_units(fin[i]);
  }
  /* the pull of one cell of an unpadded periodic lattice of outgoing populations */
  static void load_in_pull_global(const store* post, const unsigned char* flags, long x, long y,
                                  long z, long nx, long ny, long nz, const params* p, real* fin) {
    const ts_lbm_nbhd h = ts_lbm_neighbourhood(x, y, z, nx, ny, nz);
    ts_lbm_load_in_pull(post, flags, flags[h.n], &h, p, fin);
    for (int i = 0; i < q; ++i) fin[i] = ts_lbm_from_units(fin[i]);
  }
  static void velocity(const real* fin, const params* p, real* rho, real* ux, real* uy, real* uz) {
    real units[q];
    for (int i = 0; i < q; ++i) units[i] = fin[i] * ts_lbm_unit();
    ts_lbm_velocity(units, p, rho, ux, uy, uz);
  }
  static void init_pull(store* f, long n, long cs, real rho, real ux, real uy, real uz) {
    ts_lbm_init_pull(f, n, cs, rho, ux, uy, uz);
  }
  static void out_slots(long x, long y, long z, long nx, long ny, long nz, int odd, idx* slot) {
    ts_lbm_out_slots(x, y, z, nx, ny, nz, odd, slot);
  }
  static real load(const store* f, long k) { return ts_lbm_from_units(ts_lbm_load(f, k)); }
  static void save(store* f, long k, real v) { ts_lbm_save(f, k, v * ts_lbm_unit()); }
  static int cx(int i) { return ts_lbm_cx(i); }
  static int cy(int i) { return ts_lbm_cy(i); }
  static int cz(int i) { return ts_lbm_cz(i); }
  static real w(int i) { return ts_lbm_w(i); }
};
