# amg: smoothed-aggregation algebraic multigrid; the setup on the host
# (the oracle), the cycle on every device through the sparse and Krylov
# kernels (included from src/CMakeLists.txt).
tessera_module(amg
  REQUIRES sparse krylov
  BENCH amg.cpp
  SOURCES options.cpp aggregation.cpp coloring.cpp hierarchy.cpp preconditioner.cpp)
