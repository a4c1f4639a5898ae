# mg, streaming (out-of-core) thesis mode: host-resident levels, tiles streamed
# through a device-memory budget over Q queues (included from
# src/CMakeLists.txt; paths relative to src/). The other mg sources are listed
# in src/CMakeLists.txt.
target_sources(tessera PRIVATE
  mg/streaming.cpp
  mg/streaming_plan.cpp
  mg/streaming_transfer.cpp
  mg/kernels/mg_stream_cpu.cpp)
tessera_embed_sources(tessera BASE ${PROJECT_SOURCE_DIR}/src FILES
  mg/kernels/mg_stream_point.h mg/kernels/mg_stream_cache.h mg/kernels/mg_stream.cl)
if(TESSERA_HAVE_OPENCL)
  target_sources(tessera PRIVATE mg/kernels/mg_stream_opencl.cpp)
endif()
if(TESSERA_HAVE_CUDA)
  target_sources(tessera_cuda_kernels PRIVATE mg/kernels/mg_stream_cuda.cu)
endif()
