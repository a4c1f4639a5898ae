// Skeleton: the Muesli DA example (listing 2.2 of the skeleton thesis) on two
// parts of one device kind: da1 = [3,3,3,3]; da2 = da1.mapIndex(sum);
// da1.zipInPlace(da2, product) gives [9, 12, 15, 18].
// Usage: skeleton_da [DEVICE]   ("cpu" and "opencl:P:D" give logical parts;
// "cuda:0" needs two GPUs)
#include <cstdio>
#include <vector>

#include "skeleton/examples.hpp"
#include "skeleton/skeleton.hpp"

int main(int argc, char** argv) {
  namespace sk = tessera::skeleton;
  namespace ex = tessera::skeleton::examples;
  const sk::Team team = sk::Team::open(argc > 1 ? argv[1] : "cpu", 2);
  sk::DA<int> da1(team, 4, 3), da2(team, 4);
  da1.mapIndex(sk::portable(ex::DaSum{}, ex::cl_da("ts_skel_da_sum")), da2);
  da1.zipInPlace(da2, sk::portable(ex::DaProduct{}, ex::cl_da("ts_skel_da_product")));
  const std::vector<int> r = da1.gather();
  std::printf("skeleton on 2 parts: da1 = [%d, %d, %d, %d]\n", r[0], r[1], r[2], r[3]);
  return r == std::vector<int>{9, 12, 15, 18} ? 0 : 1;
}
