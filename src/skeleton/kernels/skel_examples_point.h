/* Per-point functions of the skeleton examples, tests and benchmarks: map,
 * zip, fold and boundary functions (no include guard: included once per
 * precision, see portable.h). The same text is the OpenCL user function
 * (passed as source), the CPU functor and the CUDA functor. */

/* map: an affine function */
TS_FN ts_real ts_skel_affine(ts_real v) { return (ts_real)2.5 * v - (ts_real)1; }

/* mapIndex on DA, DM, DC: adds a function of the global coordinates */
TS_FN ts_real ts_skel_wave1(long x, ts_real v) { return v + (ts_real)0.5 * (ts_real)(x % 17); }
TS_FN ts_real ts_skel_wave2(long x, long y, ts_real v) {
  return v + (ts_real)0.5 * (ts_real)((x + 3 * y) % 17);
}
TS_FN ts_real ts_skel_wave3(long x, long y, long z, ts_real v) {
  return v + (ts_real)0.5 * (ts_real)((x + 3 * y + 7 * z) % 17);
}

/* zip: a * 0.5 + b, and with the index (3-D) */
TS_FN ts_real ts_skel_axpy(ts_real a, ts_real b) { return a * (ts_real)0.5 + b; }
TS_FN ts_real ts_skel_axpy_at(long x, long y, long z, ts_real a, ts_real b) {
  return a * (ts_real)((x + y + z) % 5) + b;
}

/* fold */
TS_FN ts_real ts_skel_add(ts_real a, ts_real b) { return a + b; }
TS_FN ts_real ts_skel_max(ts_real a, ts_real b) { return a > b ? a : b; }

/* a user boundary function: the value "outside" the domain at (x, y, z) */
TS_FN ts_real ts_skel_ramp(long x, long y, long z, ts_real neutral) {
  return neutral + (ts_real)0.25 * (ts_real)(x - 2 * y + 3 * z);
}
