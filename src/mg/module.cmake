# mg: geometric multigrid, thesis-exact (mg/thesis.cpp), device-resident
# (mg/solver.cpp) and the streaming (out-of-core) thesis mode: host-resident
# levels, tiles streamed through a device-memory budget over Q queues
# (included from src/CMakeLists.txt; paths relative to src/).
target_sources(tessera PRIVATE
  mg/layout.cpp
  mg/problems.cpp
  mg/thesis.cpp
  mg/solver.cpp
  mg/kernels/mg_cpu.cpp
  mg/streaming.cpp
  mg/streaming_plan.cpp
  mg/streaming_transfer.cpp
  mg/kernels/mg_stream_cpu.cpp)
tessera_embed_sources(tessera BASE ${PROJECT_SOURCE_DIR}/src FILES
  mg/kernels/mg_grid.h mg/kernels/mg_point.h mg/kernels/mg_tiles.h mg/kernels/mg_kernel_list.h
  mg/kernels/mg.cl
  mg/kernels/mg_stream_point.h mg/kernels/mg_stream_cache.h mg/kernels/mg_stream_kernel_list.h
  mg/kernels/mg_stream.cl)
if(TESSERA_HAVE_OPENCL)
  target_sources(tessera PRIVATE mg/kernels/mg_opencl.cpp mg/kernels/mg_stream_opencl.cpp)
endif()
if(TESSERA_HAVE_CUDA)
  target_sources(tessera_cuda_kernels PRIVATE mg/kernels/mg_cuda.cu mg/kernels/mg_stream_cuda.cu)
endif()
