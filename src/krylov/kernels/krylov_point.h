/* Per-point mathematics of the Krylov vector kernels (C99 subset, shared by
 * the CPU loops, krylov.cl and krylov_cuda.cu; see core/kernels/portable.h).
 *
 * Vectors are arrays of ts_real: real vectors one real per element, complex
 * vectors interleaved (re, im). Two operations cover every Krylov method:
 *   dots:    h_k = <v_k, w> = sum_i conj(v_k,i) * w_i   (Hermitian product)
 *   combine: y_i = a * x_i + sum_k c_k * v_k,i         (axpy, scale, V*y, ...)
 *   block_diag: y_b = D_b x_b with dense bs x bs blocks (Jacobi, block Jacobi)
 * Each term of a complex product is formed here once, in a fixed order. */
#include "core/kernels/portable.h"

/* Hermitian inner-product term conj(v) * w: the conjugate is on v. */
TS_FN ts_real ts_kry_hdot_re(ts_real vr, ts_real vi, ts_real wr, ts_real wi) { return vr * wr + vi * wi; }
TS_FN ts_real ts_kry_hdot_im(ts_real vr, ts_real vi, ts_real wr, ts_real wi) { return vr * wi - vi * wr; }
/* Complex product c * v. */
TS_FN ts_real ts_kry_mul_re(ts_real cr, ts_real ci, ts_real vr, ts_real vi) { return cr * vr - ci * vi; }
TS_FN ts_real ts_kry_mul_im(ts_real cr, ts_real ci, ts_real vr, ts_real vi) { return cr * vi + ci * vr; }
/* Real versions (a real vector's element has no imaginary part to multiply). */
TS_FN ts_real ts_kry_rdot(ts_real v, ts_real w) { return v * w; }
TS_FN ts_real ts_kry_rmul(ts_real c, ts_real v) { return c * v; }
