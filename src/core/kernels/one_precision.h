/* One precision's pass of core/kernels/each_precision.h: the point headers
 * with the ts_real, ts_value, ts_pack, TS_PACK, ts_narrow (and TS_DOUBLE) the includer defined, which are
 * undefined after. */
#include TS_POINT_HEADER
#ifdef TS_POINT_HEADER2
#include TS_POINT_HEADER2
#endif
#ifdef TS_POINT_HEADER3
#include TS_POINT_HEADER3
#endif
#undef ts_real
#undef ts_value
#undef ts_pack
#undef TS_PACK
#undef ts_narrow
#undef TS_DOUBLE
