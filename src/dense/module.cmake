# dense: vector operations (element-wise, reductions in canonical and device
# order), the lecture's vector add and matrix multiply, with cuBLAS as the
# vendor baseline (included from src/CMakeLists.txt; paths relative to src/).
target_sources(tessera PRIVATE
  dense/dense.cpp
  dense/kernels/dense_cpu.cpp
  dense/matmul.cpp
  dense/kernels/matmul_cpu.cpp)
tessera_embed_sources(tessera BASE ${PROJECT_SOURCE_DIR}/src FILES
  dense/kernels/dense_params.h dense/kernels/dense_point.h dense/kernels/dense.cl
  dense/kernels/matmul_point.h dense/kernels/matmul.cl)
if(TESSERA_HAVE_OPENCL)
  target_sources(tessera PRIVATE dense/kernels/dense_opencl.cpp dense/kernels/matmul_opencl.cpp)
endif()
if(TESSERA_HAVE_CUDA)
  target_sources(tessera_cuda_kernels PRIVATE dense/kernels/dense_cuda.cu
                 dense/kernels/matmul_cuda.cu)
endif()
# The vendor baseline of dense::matmul (cuBLAS sgemm/dgemm, no TF32).
if(TESSERA_HAVE_CUBLAS)
  target_sources(tessera PRIVATE dense/kernels/matmul_cublas.cpp)
  target_link_libraries(tessera PUBLIC CUDA::cublas)
endif()
