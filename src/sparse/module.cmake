# sparse: host-side formats, converters, reference SpMV, Matrix Market I/O
# (gzip always, bzip2 where libbz2 is found: io/file_bytes, src/CMakeLists.txt),
# the TRACE generator; device-resident matrices, the public SpMV and its
# kernels (included from src/CMakeLists.txt; paths relative to src/ outside
# tessera_module).
tessera_module(sparse
  APPS cmd_sparse.cpp
  BENCH spmv.cpp
  SOURCES types.cpp convert_csr.cpp convert_block.cpp convert_ell.cpp spmv.cpp storage.cpp
          validate.cpp matrix_market_header.cpp matrix_market_read.cpp
          matrix_market_write.cpp trace_generator.cpp x_window.cpp analysis.cpp
          product.cpp device_product.cpp device_matrix.cpp device_spmv.cpp device_inputs.cpp device_run.cpp laplacian.cpp matrix_families.cpp kernel_choice.cpp
          kernels/spmv_cpu.cpp
  EMBED kernels/spmv_point.h kernels/product_point.h kernels/spmv_params.h kernels/spmv.cl
  OPENCL kernels/spmv_opencl.cpp
  CUDA kernels/spmv_cuda.cu)
# The vendor baselines of the bench (cuSPARSE CSR, SELL, BSR).
if(TESSERA_HAVE_CUDA AND TARGET CUDA::cusparse)
  target_sources(tessera PRIVATE sparse/kernels/spmv_cusparse.cpp)
  target_compile_definitions(tessera PUBLIC TESSERA_HAVE_CUSPARSE=1)
  target_link_libraries(tessera PUBLIC CUDA::cusparse)
endif()

