# sparse: host-side formats, converters, reference SpMV, Matrix Market I/O
# (gzip always, bzip2 where libbz2 is found), the TRACE generator; device-
# resident matrices, the public SpMV and its kernels (included from
# src/CMakeLists.txt; paths relative to src/).
tessera_module_apps(cmd_sparse.cpp bench_spmv.cpp)
find_package(ZLIB REQUIRED)
target_sources(tessera PRIVATE
  sparse/types.cpp
  sparse/convert_csr.cpp
  sparse/convert_block.cpp
  sparse/convert_ell.cpp
  sparse/spmv.cpp
  sparse/storage.cpp
  sparse/validate.cpp
  sparse/file_bytes.cpp
  sparse/matrix_market_header.cpp
  sparse/matrix_market_read.cpp
  sparse/matrix_market_write.cpp
  sparse/trace_generator.cpp
  sparse/x_window.cpp
  sparse/analysis.cpp
  sparse/device_matrix.cpp
  sparse/device_spmv.cpp
  sparse/device_inputs.cpp
  sparse/device_run.cpp
  sparse/laplacian.cpp
  sparse/kernels/spmv_cpu.cpp)
tessera_embed_sources(tessera BASE ${PROJECT_SOURCE_DIR}/src FILES
  sparse/kernels/spmv_point.h sparse/kernels/spmv_params.h sparse/kernels/spmv.cl)
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

target_link_libraries(tessera PRIVATE ZLIB::ZLIB)
# bzip2 (.bz2 Matrix Market files), optional like the other extras: without
# libbz2 (Debian: libbz2-dev) .bz2 files are refused by name. The library file
# is linked, not BZip2::BZip2, so that the installed package's link interface
# names no target its config would have to find.
find_package(BZip2)
if(BZIP2_FOUND)
  target_compile_definitions(tessera PRIVATE TESSERA_HAVE_BZIP2=1)
  target_include_directories(tessera PRIVATE ${BZIP2_INCLUDE_DIRS})
  target_link_libraries(tessera PRIVATE ${BZIP2_LIBRARIES})
endif()
set(TESSERA_HAVE_BZIP2 ${BZIP2_FOUND} CACHE INTERNAL "sparse: .bz2 files read and written")
