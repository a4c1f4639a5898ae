# amg: smoothed-aggregation algebraic multigrid; the setup on the host
# (the oracle) but for its products and aggregation, which a GPU runs; the
# cycle on every device through the sparse and Krylov kernels (included
# from src/CMakeLists.txt).
tessera_module(amg
  REQUIRES sparse krylov
  BENCH amg.cpp
  SOURCES options.cpp aggregation.cpp coloring.cpp hierarchy.cpp preconditioner.cpp
          device_aggregation.cpp kernels/aggregation_cpu.cpp
  EMBED kernels/aggregation_point.h kernels/aggregation.cl
  OPENCL kernels/aggregation_opencl.cpp
  CUDA kernels/aggregation_cuda.cu)
