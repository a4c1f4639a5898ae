# dense: vector operations (element-wise, reductions in canonical and device
# order), the lecture's vector add and matrix multiply, with cuBLAS as the
# vendor baseline (included from src/CMakeLists.txt; paths relative to src/
# outside tessera_module).
tessera_module(dense
  SOURCES dense.cpp kernels/dense_cpu.cpp matmul.cpp kernels/matmul_cpu.cpp
  EMBED kernels/dense_params.h kernels/dense_point.h kernels/dense.cl kernels/matmul_point.h
        kernels/matmul.cl
  OPENCL kernels/dense_opencl.cpp kernels/matmul_opencl.cpp
  CUDA kernels/dense_cuda.cu kernels/matmul_cuda.cu)
# The vendor baseline of dense::matmul (cuBLAS sgemm/dgemm, no TF32).
if(TESSERA_HAVE_CUBLAS)
  target_sources(tessera PRIVATE dense/kernels/matmul_cublas.cpp)
  target_link_libraries(tessera PUBLIC CUDA::cublas)
endif()
