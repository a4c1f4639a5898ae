/* The thesis's DA example (Muesli listing 2.2) on int elements: mapIndex with
 * Sum (value plus index), zipInPlace with Product. Guarded (int only). */
#ifndef TESSERA_SKEL_DA_EXAMPLE_H
#define TESSERA_SKEL_DA_EXAMPLE_H
TS_FN int ts_skel_da_sum(long i, int v) { return (int)i + v; }
TS_FN int ts_skel_da_product(int a, int b) { return a * b; }
#endif /* TESSERA_SKEL_DA_EXAMPLE_H */
