# mg: geometric multigrid, thesis-exact (mg/thesis.cpp), device-resident
# (mg/solver.cpp) and the streaming (out-of-core) thesis mode: host-resident
# levels, tiles streamed through a device-memory budget over Q queues
# (included from src/CMakeLists.txt).
tessera_module(mg
  SOURCES layout.cpp problems.cpp thesis.cpp solver.cpp kernels/mg_cpu.cpp streaming.cpp
          streaming_plan.cpp streaming_transfer.cpp kernels/mg_stream_cpu.cpp
  EMBED kernels/mg_grid.h kernels/mg_point.h kernels/mg_tiles.h kernels/mg_kernel_list.h
        kernels/mg.cl kernels/mg_stream_point.h kernels/mg_stream_cache.h
        kernels/mg_stream_kernel_list.h kernels/mg_stream.cl
  OPENCL kernels/mg_opencl.cpp kernels/mg_stream_opencl.cpp
  CUDA kernels/mg_cuda.cu kernels/mg_stream_cuda.cu)
