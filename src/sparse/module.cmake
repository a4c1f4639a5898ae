# sparse, device side: device-resident matrices, the public SpMV and its
# kernels (included from src/CMakeLists.txt; paths relative to src/).
target_sources(tessera PRIVATE
  sparse/device_matrix.cpp
  sparse/device_spmv.cpp
  sparse/device_inputs.cpp
  sparse/device_run.cpp
  sparse/laplacian.cpp
  sparse/kernels/spmv_cpu.cpp)
tessera_embed_sources(tessera BASE ${PROJECT_SOURCE_DIR}/src FILES
  sparse/kernels/spmv_point.h sparse/kernels/spmv.cl)
if(TESSERA_HAVE_OPENCL)
  target_sources(tessera PRIVATE sparse/kernels/spmv_opencl.cpp)
endif()
if(TESSERA_HAVE_CUDA)
  target_sources(tessera_cuda_kernels PRIVATE sparse/kernels/spmv_cuda.cu)
  # The vendor baselines of the bench (cuSPARSE CSR, SELL, BSR).
  if(TARGET CUDA::cusparse)
    target_sources(tessera PRIVATE sparse/kernels/spmv_cusparse.cpp)
    target_compile_definitions(tessera PUBLIC TESSERA_HAVE_CUSPARSE=1)
    target_link_libraries(tessera PUBLIC CUDA::cusparse)
  endif()
endif()
